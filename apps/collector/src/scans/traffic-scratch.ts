import type { TrafficDeltas } from '@ibwatch/fabric';

/** The rates of one sweep that /metrics reads after it (metrics/registry.ts `observeTraffic`). */
export interface SweepRates {
  txBps: Float64Array;
  rxBps: Float64Array;
  waitTps: Float64Array;
}

/** storeTraffic's per-row arrays of one sweep, each of exactly `rows` cells, set as new arrays would be. */
export interface TrafficArrays extends SweepRates {
  /** Port id per row, -1 when the stored topology lacks the port. */
  ids: Int32Array;
  /** The row's link data rate in bytes/s, 0 when unknown. */
  linkBps: Float64Array;
  /** The higher of transmit and receive utilisation (0.01 %). */
  util: Float64Array;
  /** trafficDeltas' output (filled by it). */
  deltas: TrafficDeltas;
}

type Buf = Float64Array<ArrayBuffer>;
const f64 = (a: Buf, rows: number): Buf => (a.length < rows ? new Float64Array(rows) : a);
/** The first `rows` cells of `a`: `a` itself when it is that long. */
const cut = <T extends Int32Array | Float64Array>(a: T, rows: number): T =>
  (a.length === rows ? a : a.subarray(0, rows)) as T;

/**
 * storeTraffic's arrays, kept from sweep to sweep. On this project's VMs the first touch of new
 * memory costs ~4.7 ms of CPU per MB, more than the loops that fill it: at 10k GPUs these arrays
 * are ~5 MB a sweep, at 45k ~20 MB. Each sweep gets views of `rows` cells, reset to what new
 * arrays would hold (ids -1, wait NaN, the rest 0).
 *
 * The rates stay with /metrics until the next sweep is observed, so they alternate between two
 * sets: a sweep never writes the set the last observed sweep handed out.
 */
export class TrafficScratch {
  private ids = new Int32Array(0);
  private linkBps = new Float64Array(0);
  private util = new Float64Array(0);
  private xmit = new Float64Array(0);
  private rcv = new Float64Array(0);
  private waitTicks = new Float64Array(0);
  private readonly rates: { txBps: Buf; rxBps: Buf; waitTps: Buf }[] = [0, 1].map(() => ({
    txBps: new Float64Array(0),
    rxBps: new Float64Array(0),
    waitTps: new Float64Array(0),
  }));
  private next = 0;
  /**
   * Bumped whenever the delta arrays are handed out: deltas computed ahead of a sweep's
   * transaction (`deltas`) are still there only while it has not moved.
   */
  generation = 0;

  /** Only trafficDeltas' arrays, of `rows` cells (filled by it), e.g. ahead of the transaction. */
  deltas(rows: number): TrafficArrays['deltas'] {
    this.generation++;
    return this.deltaViews(rows);
  }

  /** The arrays of a sweep of `rows` rows; the rates are the other set than the last call's. */
  sweep(rows: number): TrafficArrays {
    this.generation++;
    if (this.ids.length < rows) this.ids = new Int32Array(rows);
    this.linkBps = f64(this.linkBps, rows);
    this.util = f64(this.util, rows);
    const set = this.rates[this.next]!;
    this.next = 1 - this.next;
    set.txBps = f64(set.txBps, rows);
    set.rxBps = f64(set.rxBps, rows);
    set.waitTps = f64(set.waitTps, rows);
    const view = <T extends Int32Array | Float64Array>(a: T, fill: number): T => cut(a, rows).fill(fill) as T;
    return {
      ids: view(this.ids, -1),
      linkBps: view(this.linkBps, 0),
      util: view(this.util, 0),
      txBps: view(set.txBps, 0),
      rxBps: view(set.rxBps, 0),
      waitTps: view(set.waitTps, Number.NaN),
      deltas: this.deltaViews(rows),
    };
  }

  /** trafficDeltas' arrays, grown to `rows` when short; it fills them itself. */
  private deltaViews(rows: number): TrafficArrays['deltas'] {
    this.xmit = f64(this.xmit, rows);
    this.rcv = f64(this.rcv, rows);
    this.waitTicks = f64(this.waitTicks, rows);
    return { xmitWords: cut(this.xmit, rows), rcvWords: cut(this.rcv, rows), waitTicks: cut(this.waitTicks, rows) };
  }
}
