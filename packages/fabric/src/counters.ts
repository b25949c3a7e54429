import type { CounterName, PortCounters, PortRef } from './types.ts';
import { type CounterSpec, maxOfWidth, SIGNED_64, SPEC_LIST, usable } from './counter-specs.ts';

/**
 * Counter deltas between two sweeps, per port, in 64-bit bigint arithmetic.
 *
 * Why this is fiddly: the classic PortCounters are narrow (4, 8, 16, 32 bits) and, per the IBA
 * spec, *stick* at their maximum instead of wrapping (`ibqueryerrors` on a real fabric prints
 * `[PortXmitData == 4294967295]` and `[SymbolErrorCounter == 65535]`); the 64-bit
 * PortCountersExtended twins (`PortXmitDataExtended`, `SymbolErrorCounterExt` in ibdiagnet's
 * PM_INFO) don't. Counters are cleared by `ibdiagnet --pc`, `perfquery -R`, `ibqueryerrors -k`,
 * so a counter going down normally means a reset. Some HCA firmware does wrap 32-bit data
 * counters, so traffic counters get a cautious wrap rule.
 */

// The specs live in counter-specs.ts; re-exported so that `counters.ts` stays the one public entry.
export {
  COUNTER_SPECS,
  type CounterKind,
  type CounterSpec,
  maxOfWidth,
  SIGNED_64,
  SPEC_LIST,
} from './counter-specs.ts';

export type DeltaEvent = 'increase' | 'unchanged' | 'reset' | 'wrap' | 'saturated';

/** One counter of one port over one interval. */
export interface CounterDelta {
  /** Classic name (the key), e.g. `SymbolErrorCounter`, even when the Ext twin was read. */
  counter: CounterName;
  /** Column actually read, e.g. `SymbolErrorCounterExt`. */
  source: CounterName;
  widthBits: number;
  previous: bigint;
  current: bigint;
  /** Increase over the interval; undefined when unknowable (saturated). Never negative. */
  delta?: bigint;
  event: DeltaEvent;
  /** delta / interval, in counter units (4-byte words for data counters); undefined when unknown. */
  ratePerSecond?: number;
  /** For saturated counters: the least the counter must have increased. */
  lowerBound?: bigint;
  note?: string;
}

export interface PortDelta extends PortRef {
  intervalSeconds: number;
  /** The port's counters were cleared between the sweeps (a 64-bit or error counter went down). */
  portReset: boolean;
  /**
   * Counters that moved or need attention (increase, reset, wrap, saturated), keyed by classic
   * name. Unchanged counters are listed in `unchanged` instead: at 60k ports x ~40 counters,
   * one object per zero delta would dominate the sweep's run time.
   */
  counters: Record<CounterName, CounterDelta>;
  /** Classic names of counters read in both sweeps with a zero delta. */
  unchanged: CounterName[];
}

export interface DeltaResult {
  ports: PortDelta[];
  /** Ports without a previous sample: their values are lifetime totals, kept only as a baseline. */
  baseline: PortRef[];
  /** With {@link DeltaOptions.watch}: ports left out of `ports` because no watched counter moved. */
  quiet: number;
}

/** Options of {@link computeDeltas}. */
export interface DeltaOptions {
  /**
   * Classic names of the counters the caller acts on. A port on which none of them moved, went
   * down or is pegged is left out of `ports` (counted in `quiet`); any other port gets its full
   * {@link PortDelta}, every counter included. On a busy fabric the data counters move on every
   * port every sweep, so without this a 60k-port sweep builds ~60k PortDeltas that rules watching
   * error counters then skip.
   */
  watch?: ReadonlySet<CounterName>;
}

/** Output of {@link read}, kept in module scratch variables so the hot loop allocates nothing. */
let rSource: CounterName = '';
let rValue = 0n;
let rWidth = 0;
let rSatTwin = false;

/** Maximum by width without a Map look-up: this runs ~40 times per port per sweep. */
function maxFor(w: number): bigint {
  switch (w) {
    case 4:
      return 15n;
    case 8:
      return 255n;
    case 16:
      return 65_535n;
    case 32:
      return 4_294_967_295n;
    case 64:
      return 18_446_744_073_709_551_615n;
    default:
      return maxOfWidth(w);
  }
}

/**
 * Pick what to read for one counter: the 64-bit twin when present and usable, else the classic
 * column with its width. A classic counter at its maximum whose twin reads less than that
 * maximum (`SymbolErrorCounter=65535`, `SymbolErrorCounterExt=0`) means the twin is not being
 * maintained: the reading is flagged so the delta reports "saturated" instead of a fake zero.
 * A twin below a classic value that still counts is not maintained either: the classic is read.
 * With `forceSource`, only that column is read (the previous sweep must use the same column).
 * Returns false when nothing usable is there; results land in the r* scratch variables.
 */
function read(rec: PortCounters, s: CounterSpec, forceSource: CounterName | undefined): boolean {
  const c = rec.counters;
  const classicWidth = rec.extended ? 64 : s.widthBits;
  const classicMax = maxFor(s.widthBits);
  if (forceSource !== s.name) {
    const exts = s.extNames;
    for (let i = 0; i < exts.length; i++) {
      const n = exts[i]!;
      if (forceSource !== undefined && n !== forceSource) continue;
      const v = c[n];
      if (!usable(v)) continue;
      // Only a twin below the classic maximum can be one that is not maintained: skip the second
      // look-up (the costly part on ~50-key records) for the common large traffic values.
      let satTwin = false;
      if (classicWidth < 64 && v < classicMax) {
        const cl = c[s.name];
        satTwin = cl === classicMax;
        // A twin below a classic column that still counts is not maintained either: every CX-7
        // HCA port of a real NDR run (ndr-fat-tree-a, PM_INFO) with symbol errors reads e.g.
        // `SymbolErrorCounter=44375` and `SymbolErrorCounterExt=0`. Its deltas would be 0 while
        // the classic column moves, so the classic column is read (the previous sweep then reads
        // the same column, as always).
        if (!satTwin && forceSource === undefined && usable(cl) && cl > v) break;
      }
      rSource = n;
      rValue = v;
      rWidth = 64;
      rSatTwin = satTwin;
      return true;
    }
    if (forceSource !== undefined) return false;
  }
  const classic = c[s.name];
  if (!usable(classic)) return false;
  rSource = s.name;
  rValue = classic;
  // A value above the classic width can only come from a 64-bit source.
  rWidth = classic > classicMax ? 64 : classicWidth;
  rSatTwin = false;
  return true;
}

function rate(delta: bigint | undefined, interval: number): number | undefined {
  if (delta === undefined || !(interval > 0)) return undefined;
  return Number(delta) / interval;
}

/**
 * Per-port, per-counter deltas between two sweeps.
 *
 * - Ports absent from `previous` (or `previous` undefined: the first snapshot) only set a
 *   baseline: lifetime totals are not rates, so a LinkDownedCounter of 3 since boot is no flap.
 * - A counter that went down was reset: the new value is the delta (the increase since reset).
 * - A classic traffic counter of at most 32 bits that went down by more than half its range,
 *   on a port with no other sign of reset, wrapped: delta = max - prev + 1 + curr.
 * - A classic counter at its maximum is saturated: delta and rate are unknown.
 * - The 64-bit twin is preferred; the same column is read in both sweeps, so switching source
 *   never produces a spike (a column missing in one sweep re-baselines that counter).
 *
 * Linear in the number of ports. Counters not in {@link COUNTER_SPECS} are ignored.
 */
export function computeDeltas(
  previous: readonly PortCounters[] | undefined,
  current: readonly PortCounters[],
  intervalSeconds: number,
  options: DeltaOptions = {},
): DeltaResult {
  const watch = options.watch ? SPEC_LIST.filter((s) => options.watch!.has(s.name)) : undefined;
  // guid -> ports by number: avoids building a `guid/port` string per port on both sides.
  const prevByNode = new Map<string, (PortCounters | undefined)[]>();
  for (const p of previous ?? []) {
    let arr = prevByNode.get(p.nodeGuid);
    if (!arr) prevByNode.set(p.nodeGuid, (arr = []));
    arr[p.portNum] = p;
  }
  const result: DeltaResult = { ports: [], baseline: [], quiet: 0 };
  for (const cur of current) {
    const prev = prevByNode.get(cur.nodeGuid)?.[cur.portNum];
    if (!prev) {
      result.baseline.push({ nodeGuid: cur.nodeGuid, portNum: cur.portNum });
      continue;
    }
    if (watch && isQuiet(prev, cur, watch)) result.quiet++;
    else result.ports.push(portDelta(prev, cur, intervalSeconds));
  }
  return result;
}

/**
 * True when every watched counter would land in `unchanged` or be skipped by {@link portDelta}:
 * the same reads and the same fast-path test, without allocating anything.
 */
export function isQuiet(prev: PortCounters, cur: PortCounters, specs: readonly CounterSpec[]): boolean {
  const pc = prev.counters;
  const prevClassicWidth = prev.extended ? 64 : 0;
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i]!;
    if (!read(cur, s, undefined)) continue;
    const a = pc[rSource];
    if (!usable(a)) continue;
    const b = rValue;
    let w = rWidth;
    if (rSource !== s.name || prevClassicWidth === 64 || a > maxFor(s.widthBits)) w = 64;
    if (!(a === b && !rSatTwin && b !== maxFor(w))) return false;
  }
  return true;
}

// Per-port scratch (reused: computeDeltas is synchronous and never re-entered).
const sSpec: CounterSpec[] = [];
const sSource: CounterName[] = [];
const sPrev: bigint[] = [];
const sCur: bigint[] = [];
const sWidth: number[] = [];
const sSat: boolean[] = [];
const sUnchanged: CounterName[] = [];

/**
 * Hot loop: 60k ports x ~40 counters per sweep. Measured costs were the property look-ups on
 * the ~50-key counter records and garbage (one object per counter), so: the previous sweep is
 * read with exactly one look-up (the column the current sweep chose), unchanged counters only
 * add a name to an exact-size array, and moved counters become fixed-shape objects.
 */
export function portDelta(prev: PortCounters, cur: PortCounters, interval: number): PortDelta {
  const pc = prev.counters;
  const prevClassicWidth = prev.extended ? 64 : 0;
  let u = 0;
  let n = 0;
  let portReset = false;
  for (let i = 0; i < SPEC_LIST.length; i++) {
    const s = SPEC_LIST[i]!;
    if (!read(cur, s, undefined)) continue;
    const source = rSource;
    const b = rValue;
    const sat = rSatTwin;
    let w = rWidth;
    const a = pc[source];
    if (!usable(a)) continue;
    // Same rule as read(): a twin is 64-bit; a classic column is as wide as its spec unless the
    // record is extended or the value does not fit.
    if (source !== s.name || prevClassicWidth === 64 || a > maxFor(s.widthBits)) w = 64;
    // Fast path: most error counters do not move between sweeps (one at its maximum, 64-bit
    // included, is saturated however still it sits).
    if (a === b && !sat && b !== maxFor(w)) {
      sUnchanged[u++] = s.name;
      continue;
    }
    sSpec[n] = s;
    sSource[n] = source;
    sPrev[n] = a;
    sCur[n] = b;
    sWidth[n] = w;
    sSat[n] = sat;
    n++;
    // Wide or error counters never wrap in practice; if one went down, the port was cleared.
    if (b < a && (w === 64 || s.kind === 'error') && a !== maxFor(w)) portReset = true;
  }
  const counters: Record<CounterName, CounterDelta> = {};
  for (let i = 0; i < n; i++) {
    const s = sSpec[i]!;
    counters[s.name] = counterDelta(s, sSource[i]!, sPrev[i]!, sCur[i]!, sWidth[i]!, sSat[i]!, portReset, interval);
  }
  const unchanged = sUnchanged.slice(0, u);
  return { nodeGuid: cur.nodeGuid, portNum: cur.portNum, intervalSeconds: interval, portReset, counters, unchanged };
}

/**
 * Increase of one counter on one port: 0n when it was read unchanged, undefined when it was
 * not read in both sweeps or is saturated (unknown).
 */
export function deltaOf(p: PortDelta, counter: CounterName): bigint | undefined {
  const d = p.counters[counter];
  if (d) return d.delta;
  return p.unchanged.includes(counter) ? 0n : undefined;
}

/**
 * One constructor for every outcome, so all deltas share one hidden class (optional fields are
 * `undefined`, which JSON and the rules treat as absent).
 */
function mk(
  counter: CounterName,
  source: CounterName,
  widthBits: number,
  previous: bigint,
  current: bigint,
  delta: bigint | undefined,
  event: DeltaEvent,
  ratePerSecond: number | undefined,
  lowerBound: bigint | undefined,
  note: string | undefined,
): CounterDelta {
  return { counter, source, widthBits, previous, current, delta, event, ratePerSecond, lowerBound, note };
}

function counterDelta(
  s: CounterSpec,
  source: CounterName,
  previous: bigint,
  current: bigint,
  w: number,
  satTwin: boolean,
  portReset: boolean,
  interval: number,
): CounterDelta {
  const max = maxFor(w);
  const counter = s.name;
  if (satTwin) {
    const note =
      `rate unknown: ${s.name} saturated at ${maxOfWidth(s.widthBits)} and its 64-bit twin ${source} ` +
      'is not counting; reset the counters';
    return mk(counter, source, w, previous, current, undefined, 'saturated', undefined, undefined, note);
  }
  if (current === max) {
    const lowerBound = previous < max ? max - previous : 0n;
    const note = `rate unknown: ${source} saturated at ${max}; reset the counters`;
    return mk(counter, source, w, previous, current, undefined, 'saturated', undefined, lowerBound, note);
  }
  if (current >= previous) {
    const delta = current - previous;
    return mk(
      counter,
      source,
      w,
      previous,
      current,
      delta,
      delta === 0n ? 'unchanged' : 'increase',
      rate(delta, interval),
      undefined,
      undefined,
    );
  }
  const wrapped = max - previous + 1n + current;
  // A pegged counter (prev == max) that went down was cleared, not wrapped.
  if (!portReset && s.kind === 'traffic' && w <= 32 && previous !== max && wrapped <= (max + 1n) / 2n) {
    return mk(counter, source, w, previous, current, wrapped, 'wrap', rate(wrapped, interval), undefined, undefined);
  }
  const note = 'counter went down: reset between sweeps';
  return mk(counter, source, w, previous, current, current, 'reset', rate(current, interval), undefined, note);
}

/** Seconds between two ISO-8601 times (`takenAt` of two snapshots); undefined if unparsable. */
export function intervalSeconds(fromIso: string | undefined, toIso: string | undefined): number | undefined {
  if (!fromIso || !toIso) return undefined;
  const d = (Date.parse(toIso) - Date.parse(fromIso)) / 1000;
  return Number.isFinite(d) ? d : undefined;
}

/**
 * Turn a tool-computed delta (ibdiagnet's PM_DELTA: "second sample minus first" over its
 * `Going to sleep for 1 seconds`) into the same shape, so rules can run on it. Negative or
 * sentinel values are dropped.
 */
export function deltasFromToolDelta(ports: readonly PortCounters[], intervalSec: number): PortDelta[] {
  return ports.map((p) => {
    const counters: Record<CounterName, CounterDelta> = {};
    for (const s of SPEC_LIST) {
      // A difference of 2^63 or more is a negative one written unsigned (the counter was
      // cleared between ibdiagnet's two samples), not an increase.
      if (!read(p, s, undefined) || rSatTwin || rValue >= SIGNED_64) continue;
      const v = rValue;
      counters[s.name] = {
        counter: s.name,
        source: rSource,
        widthBits: rWidth,
        previous: 0n,
        current: v,
        delta: v,
        event: v === 0n ? 'unchanged' : 'increase',
        ratePerSecond: rate(v, intervalSec),
      };
    }
    return {
      nodeGuid: p.nodeGuid,
      portNum: p.portNum,
      intervalSeconds: intervalSec,
      portReset: false,
      counters,
      unchanged: [],
    };
  });
}
