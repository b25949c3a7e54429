import {
  linkBytesPerSecond,
  subjectKey,
  trafficDeltas,
  utilPermyriad,
  type CounterTable,
  type TrafficDeltas,
  type Verdict,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { Config } from '../config.ts';
import { createTrafficRepo, type RecentRow } from '../db/traffic-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import type { TopologyView } from './counter-baseline.ts';
import type { TrafficHour } from './traffic-hour.ts';
import type { TrafficScratch } from './traffic-scratch.ts';
import { syncFindings } from './findings-sync.ts';
import { TRAFFIC_KINDS } from '../queries/finding-kinds.ts';
import { observeTraffic } from '../metrics/registry.ts';
import { endsOfSubjectKey, refreshLinkHealth } from './link-health-store.ts';

export const XMIT_WAIT_KIND = 'port-xmit-wait';
const PACK_HOURS_PER_SWEEP = 2;

export interface TrafficInput {
  previous: CounterTable | undefined;
  current: CounterTable;
  at: number;
  intervalS: number;
  view: TopologyView;
  portName: (guid: string, port: number) => string;
  /** The deltas computed ahead of the transaction ({@link prepareTraffic}); used only if still valid. */
  prepared?: PreparedTraffic;
}

/** trafficDeltas of two sweeps, computed ahead into the hour's kept arrays. */
export interface PreparedTraffic {
  previous: CounterTable;
  current: CounterTable;
  scratch: TrafficScratch;
  generation: number;
  deltas: TrafficDeltas;
}

/**
 * The part of storeTraffic that needs neither the interval nor the database, ahead of the
 * sweep's transaction (which holds the event loop). `prevRow`: matchRows of the same two tables.
 */
export function prepareTraffic(
  hour: TrafficHour,
  previous: CounterTable,
  current: CounterTable,
  prevRow?: Int32Array,
): PreparedTraffic {
  const deltas = trafficDeltas(previous, current, hour.scratch.deltas(current.rows), prevRow);
  return { previous, current, scratch: hour.scratch, generation: hour.scratch.generation, deltas };
}

/**
 * Whether deltas computed ahead are those of these two sweeps and still in their arrays: the
 * same tables (never written after they are built), the same hour's arrays, and nothing handed
 * those arrays out since (a store in between, or a baseline thrown away, fails one of these).
 */
function stillValid(p: PreparedTraffic | undefined, hour: TrafficHour, input: TrafficInput): p is PreparedTraffic {
  return (
    p !== undefined &&
    p.previous === input.previous &&
    p.current === input.current &&
    p.scratch === hour.scratch &&
    p.generation === hour.scratch.generation
  );
}

/**
 * Traffic of one PM sweep (docs/traffic.md): every port's transmit/receive bytes/s and
 * utilisation of its link's data rate and PortXmitWait ticks/s from the two sweeps' counters;
 * added to the hour's averages and maxima (written every sweep), the busiest ports kept at sweep
 * resolution, and the sustained-XmitWait finding. Runs inside the sweep's transaction.
 */
export function storeTraffic(db: Db, config: Config, hour: TrafficHour, input: TrafficInput): Record<string, number> {
  const { current, at, intervalS, view } = input;
  // No previous sweep (first one, or after a restart for the data counters, which are not
  // stored): rates unknown. Findings are left as they are, not cleared. Nor over a gap of more
  // than an hour (collector stopped, an old import as the baseline): that average belongs to no hour.
  if (!input.previous || !(intervalS > 0) || intervalS > 3600) return { trafficPorts: 0 };
  const repo = createTrafficRepo(db);
  // Arrays kept across sweeps (traffic-scratch.ts), set as new ones would be.
  const ready = stillValid(input.prepared, hour, input);
  const { ids, linkBps, util, txBps: tx, rxBps: rx, waitTps: wait, deltas } = hour.scratch.sweep(current.rows);
  const d = ready ? input.prepared!.deltas : trafficDeltas(input.previous, current, deltas);
  if (Math.floor(at / 3_600_000) * 3_600_000 !== hour.hour) {
    const start = Math.floor(at / 3_600_000) * 3_600_000;
    // A fresh process continues the hour an earlier one stored; a new hour starts empty.
    hour.begin(at, hour.hour < 0 ? repo.chunks(start, start) : []);
  }
  hour.n++;
  const t = config.traffic;
  // The link rate of each row (linkBps), looked up once; per width and speed (the view shares those strings).
  const rates = new Map<string | null, Map<string | null, number>>();
  const rateOf = (w: string | null, sp: string | null) => {
    let bySpeed = rates.get(w);
    if (!bySpeed) rates.set(w, (bySpeed = new Map()));
    let v = bySpeed.get(sp);
    if (v === undefined) bySpeed.set(sp, (v = linkBytesPerSecond(w, sp)));
    return v;
  };
  let maxId = 0;
  for (let r = 0; r < current.rows; r++) {
    const p = view.byPort.get(current.nodeGuids[r]!, current.portNums[r]!);
    if (p) {
      ids[r] = p.id;
      linkBps[r] = rateOf(p.widthActive, p.speedActive);
      if (p.id > maxId) maxId = p.id;
    }
  }
  hour.ensure(maxId);
  let ports = 0;
  for (let r = 0; r < current.rows; r++) {
    const id = ids[r]!;
    if (id < 0) continue;
    const bps = linkBps[r]!;
    const xw = d.xmitWords[r]!;
    const rw = d.rcvWords[r]!;
    const wt = d.waitTicks[r]!;
    tx[r] = (xw * 4) / intervalS; // NaN when unknown: no utilisation, no sample on /metrics
    rx[r] = (rw * 4) / intervalS;
    wait[r] = Number.isNaN(wt) ? Number.NaN : wt / intervalS;
    const tu = utilPermyriad(tx[r]!, bps);
    const ru = utilPermyriad(rx[r]!, bps);
    util[r] = Math.max(tu, ru);
    if (!Number.isNaN(xw) || !Number.isNaN(rw) || !Number.isNaN(wt)) ports++;
    hour.add(id, tu, ru, Number.isNaN(wait[r]!) ? 0 : wait[r]!);
  }
  repo.putChunks(at, hour.chunks());
  // Closed hours are packed (migration 0019); two a sweep, so an upgraded month of plain hours
  // does not hold one sweep for a minute.
  repo.packClosed(at, PACK_HOURS_PER_SWEEP);
  observeTraffic(db, { table: current, txBps: tx, rxBps: rx, waitTps: wait });

  // Sweep resolution for the busiest: the top N by utilisation and the top N by XmitWait.
  const pick = new Set<number>();
  for (const score of [util, wait]) for (const r of topRows(score, t.recentPorts)) pick.add(r);
  const recent: RecentRow[] = [];
  for (const r of pick) {
    if (ids[r]! < 0) continue;
    recent.push({ portId: ids[r]!, txBps: tx[r]! || 0, rxBps: rx[r]! || 0, waitTps: wait[r]! || 0 });
  }
  repo.addRecent(at, recent);
  repo.pruneRecent(at - t.recentHours * 3_600_000);

  // Sustained XmitWait: `waitSweeps` sweeps in a row at or above the minor threshold, not one
  // spike. A port with an active finding keeps it while it stays above the threshold, so a
  // restart (which forgets the streaks) does not clear it.
  const findings = createFindingsRepo(db);
  // Read only when a port is waiting (most sweeps have none): syncFindings reads them again.
  let active: Set<string> | undefined;
  const isActive = (key: string) =>
    (active ??= new Set(
      findings
        .liveKeys()
        .filter((f) => f.kind === XMIT_WAIT_KIND && f.state !== 'resolved')
        .map((f) => f.subjectKey),
    )).has(key);
  const verdicts: Verdict[] = [];
  for (let r = 0; r < current.rows; r++) {
    const id = ids[r]!;
    const w = wait[r]!;
    if (id < 0 || Number.isNaN(w)) continue;
    if (w < t.waitMinorTps) {
      hour.streak[id] = 0;
      continue;
    }
    hour.streak[id] = Math.min(65_535, hour.streak[id]! + 1);
    const g = current.nodeGuids[r]!;
    const n = current.portNums[r]!;
    const sk = subjectKey({ kind: 'port', port: { nodeGuid: g, portNum: n } });
    if (hour.streak[id]! < t.waitSweeps && !isActive(sk)) continue;
    verdicts.push(waitVerdict(g, n, input.portName(g, n), w, hour.streak[id]!, t));
  }
  const sync = syncFindings(findings, verdicts, TRAFFIC_KINDS, at, config.autoResolveMin * 60_000);
  refreshLinkHealth(db, new Set(sync.changedSubjects.flatMap(endsOfSubjectKey)));
  return {
    trafficPorts: ports,
    trafficRecent: recent.length,
    xmitWaitOpened: sync.opened,
    xmitWaitCleared: sync.cleared,
  };
}

function waitVerdict(
  nodeGuid: string,
  portNum: number,
  name: string,
  tps: number,
  sweeps: number,
  t: Config['traffic'],
): Verdict {
  const major = tps >= t.waitMajorTps;
  const fmt = tps >= 1e6 ? `${(tps / 1e6).toFixed(1)}M` : `${Math.round(tps / 1e3)}k`;
  return {
    kind: XMIT_WAIT_KIND,
    severity: major ? 'major' : 'minor',
    subject: { kind: 'port', port: { nodeGuid, portNum } },
    title: `PortXmitWait at ${fmt} ticks/s on ${name} for ${sweeps} sweeps: the port waits for credits (congestion)`,
    short: `xmit wait ${fmt} ticks/s`,
    evidence: {
      counter: 'PortXmitWait',
      ticksPerSecond: Math.round(tps),
      sweeps,
      threshold: major ? t.waitMajorTps : t.waitMinorTps,
    },
  };
}

/** Rows of the `n` largest positive scores (NaN and 0 left out). */
export function topRows(score: Float64Array, n: number): number[] {
  if (n <= 0) return [];
  // The n-th largest positive score through a min-heap of the n largest so far: one pass, no
  // copy. Filtering and sorting a copy of all 272k scores (45k GPUs) cost tens of ms a sweep.
  const heap = new Float64Array(n);
  let size = 0;
  for (let r = 0; r < score.length; r++) {
    const v = score[r]!;
    if (!(v > 0)) continue;
    if (size < n) {
      // Sift up.
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= v) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = v;
    } else if (v > heap[0]!) {
      // Replace the smallest and sift down.
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap[c + 1]! < heap[c]!) c++;
        if (heap[c]! >= v) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = v;
    }
  }
  if (size === 0) return [];
  const cut = heap[0]!;
  const out: number[] = [];
  for (let r = 0; r < score.length && out.length < n; r++) if (score[r]! >= cut) out.push(r);
  return out;
}
