import { TrafficScratch } from './traffic-scratch.ts';
import { CHUNK_PORTS, type HourChunk, readSlot, SLOT_BYTES, writeSlot } from '../db/traffic-repo.ts';

const HOUR_MS = 3_600_000;

/**
 * The current hour's traffic per port id, accumulated in typed arrays (272k ports at 45k GPUs):
 * sums for the averages, maxima, and the sweeps counted. Written out as packed chunks every
 * sweep, so a restart continues the hour from the stored averages (`resume`).
 */
export class TrafficHour {
  hour = -1;
  n = 0;
  private txSum = new Float64Array(0);
  private rxSum = new Float64Array(0);
  private waitSum = new Float64Array(0);
  private txMax = new Uint16Array(0);
  private rxMax = new Uint16Array(0);
  private waitMax = new Float64Array(0);
  /** Chunks with a non-zero value this hour: only those are written. */
  private used = new Uint8Array(0);
  /** Consecutive sweeps each port's XmitWait was at or above the minor threshold (across hours). */
  streak = new Uint16Array(0);
  /** storeTraffic's per-row arrays, kept across sweeps. */
  readonly scratch = new TrafficScratch();

  /** Makes room for port ids up to `maxId`. */
  ensure(maxId: number): void {
    if (maxId < this.txSum.length) return;
    const n = Math.max(maxId + 1, this.txSum.length * 2, 1024);
    const grow = <T extends Float64Array | Uint16Array>(a: T, make: (k: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.txSum = grow(this.txSum, (k) => new Float64Array(k));
    this.rxSum = grow(this.rxSum, (k) => new Float64Array(k));
    this.waitSum = grow(this.waitSum, (k) => new Float64Array(k));
    this.waitMax = grow(this.waitMax, (k) => new Float64Array(k));
    this.txMax = grow(this.txMax, (k) => new Uint16Array(k));
    this.rxMax = grow(this.rxMax, (k) => new Uint16Array(k));
    this.streak = grow(this.streak, (k) => new Uint16Array(k));
    const used = new Uint8Array(Math.ceil(n / CHUNK_PORTS));
    used.set(this.used);
    this.used = used;
  }

  /** Starts hour `at` (empty, or from the chunks stored for it by an earlier process). */
  begin(at: number, stored: Iterable<HourChunk>): void {
    this.hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    this.n = 0;
    for (const a of [this.txSum, this.rxSum, this.waitSum, this.waitMax, this.txMax, this.rxMax, this.used]) a.fill(0);
    for (const c of stored) {
      this.n = Math.max(this.n, c.n);
      const base = c.chunk * CHUNK_PORTS;
      this.ensure(base + CHUNK_PORTS - 1);
      this.used[c.chunk] = 1;
      for (let off = 0; off + SLOT_BYTES <= c.data.byteLength; off += SLOT_BYTES) {
        const id = base + off / SLOT_BYTES;
        const s = readSlot(c.data, off);
        this.txSum[id] = s.txAvg * c.n;
        this.rxSum[id] = s.rxAvg * c.n;
        this.waitSum[id] = s.waitAvg * c.n;
        this.txMax[id] = s.txMax;
        this.rxMax[id] = s.rxMax;
        this.waitMax[id] = s.waitMax;
      }
    }
  }

  /** One port's sweep: utilisation in 1/10,000 of the link rate, XmitWait in ticks/s. */
  add(id: number, tx: number, rx: number, wait: number): void {
    if (tx === 0 && rx === 0 && wait === 0) return;
    this.txSum[id]! += tx;
    this.rxSum[id]! += rx;
    this.waitSum[id]! += wait;
    if (tx > this.txMax[id]!) this.txMax[id] = tx;
    if (rx > this.rxMax[id]!) this.rxMax[id] = rx;
    if (wait > this.waitMax[id]!) this.waitMax[id] = wait;
    this.used[Math.floor(id / CHUNK_PORTS)] = 1;
  }

  /** The hour so far as packed chunks (trailing zero slots left out), for the chunks with traffic. */
  chunks(): { chunk: number; n: number; data: Uint8Array }[] {
    const out: { chunk: number; n: number; data: Uint8Array }[] = [];
    const n = Math.max(this.n, 1);
    for (let c = 0; c < this.used.length; c++) {
      if (!this.used[c]) continue;
      const base = c * CHUNK_PORTS;
      const end = Math.min(base + CHUNK_PORTS, this.txSum.length);
      let last = -1;
      for (let id = base; id < end; id++) if (this.txMax[id] || this.rxMax[id] || this.waitMax[id]) last = id;
      if (last < 0) continue;
      const data = new Uint8Array((last - base + 1) * SLOT_BYTES);
      const dv = new DataView(data.buffer);
      for (let id = base; id <= last; id++) {
        writeSlot(dv, (id - base) * SLOT_BYTES, {
          txAvg: Math.round(this.txSum[id]! / n),
          txMax: this.txMax[id]!,
          rxAvg: Math.round(this.rxSum[id]! / n),
          rxMax: this.rxMax[id]!,
          waitAvg: Math.round(this.waitSum[id]! / n),
          waitMax: Math.round(this.waitMax[id]!),
        });
      }
      out.push({ chunk: c, n: this.n, data });
    }
    return out;
  }
}
