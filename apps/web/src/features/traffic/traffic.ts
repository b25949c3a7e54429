/**
 * Pure shaping of the traffic views: units (bytes/s as bits/s, as link rates are quoted; XmitWait
 * ticks/s) and the hot-links table's sort order. Components only render what these return.
 */
import type { HotLink } from '@ibwatch/fabric';

/** Bytes/s as Gb/s or Mb/s text: link rates are quoted in bits (4X NDR = 400 Gb/s). */
export function formatBitRate(bytesPerSecond: number): string {
  const bits = bytesPerSecond * 8;
  if (bits >= 1e9) return `${Number((bits / 1e9).toPrecision(3))} Gb/s`;
  if (bits >= 1e6) return `${Number((bits / 1e6).toPrecision(3))} Mb/s`;
  if (bits >= 1e3) return `${Number((bits / 1e3).toPrecision(3))} kb/s`;
  return `${Math.round(bits)} b/s`;
}

/** XmitWait ticks/s, compact: 2500000 → "2.5M/s". */
export function formatTicks(tps: number): string {
  if (tps >= 1e9) return `${Number((tps / 1e9).toPrecision(3))}G/s`;
  if (tps >= 1e6) return `${Number((tps / 1e6).toPrecision(3))}M/s`;
  if (tps >= 1e3) return `${Number((tps / 1e3).toPrecision(3))}k/s`;
  return `${Math.round(tps)}/s`;
}

export const formatPct = (pct: number): string => `${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)} %`;

export const HOT_SORTS = ['util', 'peak', 'wait', 'name'] as const;
export type HotSort = (typeof HOT_SORTS)[number];

/** The higher direction's value: a link is as busy as its busier direction. */
export const busiest = (l: HotLink) => Math.max(l.txAvgPct, l.rxAvgPct);
const peak = (l: HotLink) => Math.max(l.txMaxPct, l.rxMaxPct);

/** Both lists of the reply merged (a port in both once), sorted; ties broken by name then port. */
export function hotRows(byUtil: readonly HotLink[], byWait: readonly HotLink[], sort: HotSort): HotLink[] {
  const seen = new Map<string, HotLink>();
  for (const l of [...byUtil, ...byWait]) seen.set(`${l.guid}/${l.port}`, l);
  const key: Record<HotSort, (l: HotLink) => number> = {
    util: busiest,
    peak,
    wait: (l) => l.waitAvgTps,
    name: () => 0,
  };
  return [...seen.values()].sort(
    (a, b) => key[sort](b) - key[sort](a) || a.name.localeCompare(b.name) || a.port - b.port,
  );
}

/** Tier arrow of a link: `leaf → spine` for an uplink. */
export function tierPath(l: HotLink): string {
  return l.remote ? `${l.tier} → ${l.remote.tier}` : l.tier;
}
