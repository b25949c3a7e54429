import { matchRows } from './counter-table-deltas.ts';
import { nominalGbps } from './rates.ts';
import type { CounterColumn, CounterTable, LinkSpeed, LinkWidth } from './types.ts';

/**
 * Traffic and congestion of every port between two sweeps, over typed arrays (a sweep has up to
 * 272k ports; one record per port, as the error rules use, would cost more than the sweep).
 *
 * The counters: PortXmitData / PortRcvData count data octets divided by 4 (IBA PortCounters),
 * so bytes = words x 4; PortXmitWait counts ticks during which the port had data to send but
 * sent none. The 64-bit twin (`...Extended` / `...Ext`, ibdiagnet) is read when present; a
 * classic column is 64-bit when its row is `extended` (ibqueryerrors read PortCountersExtended)
 * or a value does not fit in 32 bits.
 *
 * Same rules as the error counters' deltas (counters.ts): a 64-bit counter that went down was
 * cleared, and the current value is what it counted since (a lower bound); a 32-bit counter at
 * its maximum is saturated (unknown); one that went down by less than half its range wrapped.
 */
export const TRAFFIC_COUNTERS = {
  xmit: ['PortXmitDataExtended', 'PortXmitData'],
  rcv: ['PortRcvDataExtended', 'PortRcvData'],
  wait: ['PortXmitWaitExt', 'PortXmitWait'],
} as const;

export interface TrafficDeltas {
  /** Per row of the current table: increase over the interval, NaN when unknown (new port, saturated, absent). */
  xmitWords: Float64Array;
  rcvWords: Float64Array;
  waitTicks: Float64Array;
}

const TWO32 = 4_294_967_296;
const MAX32 = 0xffff_ffff;

/**
 * The deltas of every row of `current`. With `into` (arrays of `current.rows` each, e.g. kept
 * across sweeps: on this project's VMs new memory costs more than the loops), they are written
 * there, every cell, and `into` is returned; the result is the same as into new arrays.
 * `prevRow`: `matchRows(previous, current)` when the caller has it already (tableChanges).
 */
export function trafficDeltas(
  previous: CounterTable | undefined,
  current: CounterTable,
  into?: TrafficDeltas,
  prevRow?: Int32Array,
): TrafficDeltas {
  const n = current.rows;
  const out: TrafficDeltas = into ?? {
    xmitWords: new Float64Array(n),
    rcvWords: new Float64Array(n),
    waitTicks: new Float64Array(n),
  };
  for (const a of [out.xmitWords, out.rcvWords, out.waitTicks]) {
    if (a.length !== n) throw new Error(`trafficDeltas: an array of ${a.length} for ${n} rows`);
    a.fill(Number.NaN);
  }
  if (!previous) return out;
  const rows = prevRow?.length === n ? prevRow : matchRows(previous, current);
  columnDeltas(previous, current, rows, TRAFFIC_COUNTERS.xmit, out.xmitWords);
  columnDeltas(previous, current, rows, TRAFFIC_COUNTERS.rcv, out.rcvWords);
  columnDeltas(previous, current, rows, TRAFFIC_COUNTERS.wait, out.waitTicks);
  return out;
}

/** The first of `names` present in both tables (twin first): one column per counter and sweep. */
function pick(t: CounterTable, names: readonly string[]): CounterColumn | undefined {
  for (const name of names) {
    const c = t.columns.find((x) => x.name === name);
    if (c) return c;
  }
  return undefined;
}

function columnDeltas(
  previous: CounterTable,
  current: CounterTable,
  prevRow: Int32Array,
  names: readonly string[],
  out: Float64Array,
): void {
  const cur = pick(current, names);
  const prev = cur && previous.columns.find((x) => x.name === cur.name);
  if (!cur || !prev) return;
  // A twin's name ends in Extended/Ext: always 64-bit.
  const twin = cur.name !== names.at(-1);
  const ca = cur.absent;
  const pa = prev.absent;
  for (let r = 0; r < current.rows; r++) {
    const p = prevRow[r]!;
    if (p < 0 || ca?.[r] === 1 || pa?.[p] === 1) continue;
    const ch = cur.hi[r]!;
    const cl = cur.lo[r]!;
    const ph = prev.hi[p]!;
    const pl = prev.lo[p]!;
    const wide = twin || ch !== 0 || ph !== 0 || current.extended?.[r] === 1 || previous.extended?.[p] === 1;
    // Exact for any increase below 2^53 (the halves' differences are small integers).
    const d = (ch - ph) * TWO32 + (cl - pl);
    if (wide) {
      // All ones: saturated (only a broken counter gets there). Went down: cleared between sweeps.
      if (ch === MAX32 && cl === MAX32) continue;
      out[r] = d >= 0 ? d : ch * TWO32 + cl;
      continue;
    }
    if (cl === MAX32) continue; // a 32-bit counter stops at its maximum: saturated, unknown
    if (d >= 0) out[r] = d;
    else if (pl !== MAX32 && d + TWO32 <= TWO32 / 2)
      out[r] = d + TWO32; // wrapped
    else out[r] = cl; // cleared: counted since the clear
  }
}

/** Data rate of a link in bytes/s: width x lane data rate (4X NDR = 400 Gb/s = 50e9 B/s). */
export function linkBytesPerSecond(width: string | null | undefined, speed: string | null | undefined): number {
  if (!width || !speed) return 0;
  const gbps = nominalGbps(width as LinkWidth, speed as LinkSpeed);
  return Number.isFinite(gbps) ? (gbps * 1e9) / 8 : 0;
}

/** Utilisation in 1/10,000 of the link's rate (0.01 %), capped to 16 bits; 0 when the rate is unknown. */
export function utilPermyriad(bytesPerSecond: number, linkBps: number): number {
  if (!(linkBps > 0) || !(bytesPerSecond > 0)) return 0;
  return Math.min(65_535, Math.round((bytesPerSecond / linkBps) * 10_000));
}
