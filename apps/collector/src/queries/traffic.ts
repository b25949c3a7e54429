import { linkBytesPerSecond, type HotLink, type Tier, type TrafficEnd, type TrafficPoint } from '@ibwatch/fabric';
import { CHUNK_PORTS, readSlot, SLOT_BYTES, type TrafficPortInfo, type TrafficRepo } from '../db/traffic-repo.ts';
import type { NameBook } from '../names.ts';

const HOUR_MS = 3_600_000;
const RANK: Record<string, number> = { hca: 0, aggregation: 0, leaf: 1, spine: 2, core: 3 };

interface Acc {
  tx: number;
  rx: number;
  wait: number;
  txMax: number;
  rxMax: number;
  waitMax: number;
}

/**
 * The hot links of the last `hours` (the current hour so far included), from the hourly slots:
 * a port's average is its hours' averages weighted by their sweeps over all sweeps of the window
 * (an hour without a slot had no traffic), its maximum the highest hourly maximum.
 */
export function hotLinks(repo: TrafficRepo, names: NameBook, now: number, hours: number, limit: number) {
  // Every hour bucket overlapping the last `hours` hours (the current one so far included).
  const from = now - hours * HOUR_MS;
  const acc = new Map<number, Acc>();
  const sweepsOf = new Map<number, number>();
  for (const c of repo.chunks(from, now)) {
    sweepsOf.set(c.hour, Math.max(sweepsOf.get(c.hour) ?? 0, c.n));
    const base = c.chunk * CHUNK_PORTS;
    for (let off = 0; off + SLOT_BYTES <= c.data.byteLength; off += SLOT_BYTES) {
      const s = readSlot(c.data, off);
      if (s.txMax === 0 && s.rxMax === 0 && s.waitMax === 0) continue;
      const id = base + off / SLOT_BYTES;
      let a = acc.get(id);
      if (!a) acc.set(id, (a = { tx: 0, rx: 0, wait: 0, txMax: 0, rxMax: 0, waitMax: 0 }));
      a.tx += s.txAvg * c.n;
      a.rx += s.rxAvg * c.n;
      a.wait += s.waitAvg * c.n;
      a.txMax = Math.max(a.txMax, s.txMax);
      a.rxMax = Math.max(a.rxMax, s.rxMax);
      a.waitMax = Math.max(a.waitMax, s.waitMax);
    }
  }
  let sweeps = 0;
  for (const n of sweepsOf.values()) sweeps += n;
  const top = (score: (a: Acc) => number) =>
    [...acc]
      .filter(([, a]) => score(a) > 0)
      .sort((x, y) => score(y[1]) - score(x[1]))
      .slice(0, limit);
  const byUtil = top((a) => Math.max(a.tx, a.rx) || Math.max(a.txMax, a.rxMax) / 1e6);
  const byWait = top((a) => a.wait || a.waitMax / 1e6);
  const info = new Map(repo.portsInfo([...new Set([...byUtil, ...byWait].map(([id]) => id))]).map((p) => [p.id, p]));
  const pct = (permyriad: number) => Math.round(permyriad) / 100;
  const row = ([id, a]: [number, Acc]): HotLink | null => {
    const p = info.get(id);
    if (!p) return null; // a port since removed from the topology
    const d = Math.max(sweeps, 1);
    const bps = linkBytesPerSecond(p.width, p.speed);
    const self = end(names, p.guid, p.port, p.type, p.tier, p.description);
    const remote =
      p.remoteGuid && p.remotePort !== null
        ? end(names, p.remoteGuid, p.remotePort, p.remoteType, p.remoteTier, p.remoteDescription)
        : null;
    return {
      ...self,
      remote,
      uplink: remote !== null && (RANK[remote.tier] ?? 0) > (RANK[self.tier] ?? 0),
      rate: p.width && p.speed ? `${p.width} ${p.speed}` : null,
      linkGbps: (bps * 8) / 1e9,
      txAvgPct: pct(a.tx / d),
      txMaxPct: pct(a.txMax),
      rxAvgPct: pct(a.rx / d),
      rxMaxPct: pct(a.rxMax),
      waitAvgTps: Math.round(a.wait / d),
      waitMaxTps: a.waitMax,
    };
  };
  const keep = (x: HotLink | null): x is HotLink => x !== null;
  return {
    hours,
    from: Math.floor(from / HOUR_MS) * HOUR_MS,
    to: now,
    byUtilisation: byUtil.map(row).filter(keep),
    byXmitWait: byWait.map(row).filter(keep),
  };
}

function end(
  names: NameBook,
  guid: string,
  port: number,
  type: string | null,
  tier: string | null,
  description: string | null,
): TrafficEnd {
  return {
    guid,
    port,
    name: names.name(guid, description ?? undefined),
    tier: (tier ?? (type === 'ca' ? 'hca' : 'unknown')) as Tier,
  };
}

/** A port's traffic in [from, to]: sweep points while it was kept at sweep resolution, else hourly. */
export function portTraffic(
  repo: TrafficRepo,
  info: Pick<TrafficPortInfo, 'id' | 'width' | 'speed'>,
  from: number,
  to: number,
  sweepsAvailable: boolean,
): { resolution: 'sweep' | 'hour'; linkGbps: number; points: TrafficPoint[] } {
  const bps = linkBytesPerSecond(info.width, info.speed);
  const pctOf = (b: number) => (bps > 0 ? Math.round((b / bps) * 10_000) / 100 : 0);
  const linkGbps = (bps * 8) / 1e9;
  if (sweepsAvailable) {
    const rows = repo.recent(info.id, from, to);
    if (rows.length > 0)
      return {
        resolution: 'sweep',
        linkGbps,
        points: rows.map((r) => ({ ...r, txPct: pctOf(r.txBps), rxPct: pctOf(r.rxBps) })),
      };
  }
  const points = repo.portHours(info.id, from, to).map((h) => ({
    at: h.at,
    txPct: h.txAvg / 100,
    rxPct: h.rxAvg / 100,
    txBps: Math.round((h.txAvg / 10_000) * bps),
    rxBps: Math.round((h.rxAvg / 10_000) * bps),
    waitTps: h.waitAvg,
    txMaxPct: h.txMax / 100,
    rxMaxPct: h.rxMax / 100,
    waitMaxTps: h.waitMax,
  }));
  return { resolution: 'hour', linkGbps, points };
}
