/**
 * The PM_INFO / PM_DELTA {@link CounterTable} as it is written: cells go straight into their
 * columns' 32-bit halves while the row's bytes are scanned (db-csv-pm.ts), instead of being
 * staged per row and copied through `CounterTableBuilder` setters (2 x 40k rows x 50 cells at
 * 10k GPUs: the copy was ~a third of the PM time).
 *
 * A row is written at index `rows` before it is known to be good, and only counted by
 * {@link PmTableWriter.commit}. A row that is then refused leaves cells behind in that
 * uncounted row: `reserve` sets that row back to 0 before the next row is written there, and
 * `build` cuts the tail off. So every row starts as all zeros (as a new array is) and a cell
 * that is 0, or a high half that is 0, need not be written: nearly every counter is under 2^32
 * and most are 0. (The reader writes every other cell, absent ones too; a column is only added
 * by the header, so the columns are all there before the first row.)
 */
import type { CounterTable, Guid } from '@ibwatch/fabric';
import { ABSENT } from '@ibwatch/fabric';

const TWO32 = 4_294_967_296;

export class PmTableWriter {
  /** Committed rows; the row being written is `rows`. */
  rows = 0;
  /** Rows each column can hold: column `c` is `hi/lo[c * cap, (c + 1) * cap)`. */
  cap: number;
  private readonly guids: Guid[] = [];
  private ports: Uint16Array;
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  /**
   * All columns' halves in two arrays, column after column: a cell is `hi/lo[c * cap + row]`,
   * one store at a computed index where an array of per-column arrays cost two more loads per
   * cell (4M cells at 10k GPUs); `build` hands out views, so nothing is copied.
   */
  hi: Uint32Array;
  lo: Uint32Array;
  /** A row was reserved and not committed yet. */
  private pending = false;

  constructor(capacity: number) {
    this.cap = Math.max(16, capacity);
    this.ports = new Uint16Array(this.cap);
    this.hi = new Uint32Array(0);
    this.lo = new Uint32Array(0);
  }

  /** Index of each column of `names`, those not there yet added (absent in every row). */
  columns(names: readonly string[]): Int32Array {
    const out = new Int32Array(names.length);
    names.forEach((name, k) => {
      let i = this.index.get(name);
      if (i === undefined) {
        i = this.names.length;
        this.names.push(name);
        this.index.set(name, i);
      }
      out[k] = i;
    });
    // Once for all of them: the columns are laid out one after another in one array.
    if (this.hi.length !== this.cap * this.names.length) this.resize(this.cap, this.names.length);
    return out;
  }

  /** Make room for the row about to be written (index `rows`); call before its cells. */
  reserve(): void {
    if (this.pending) {
      // The last row written was refused: its cells back to 0.
      const { hi, lo, cap, rows } = this;
      for (let at = rows; at < hi.length; at += cap) {
        hi[at] = 0;
        lo[at] = 0;
      }
    }
    this.pending = true;
    if (this.rows === this.cap) {
      const p = new Uint16Array(this.cap * 2);
      p.set(this.ports);
      this.ports = p;
      this.resize(this.cap * 2, this.names.length);
    }
  }

  setNumber(col: number, row: number, v: number): void {
    const at = col * this.cap + row;
    const lo = v >>> 0;
    this.lo[at] = lo;
    this.hi[at] = (v - lo) / TWO32;
  }

  setHalves(col: number, row: number, hi: number, lo: number): void {
    const at = col * this.cap + row;
    this.hi[at] = hi;
    this.lo[at] = lo;
  }

  setAbsent(col: number, row: number): void {
    const at = col * this.cap + row;
    this.hi[at] = ABSENT;
    this.lo[at] = ABSENT;
  }

  setBigint(col: number, row: number, v: bigint): void {
    const at = col * this.cap + row;
    this.hi[at] = Number((v >> 32n) & 0xffff_ffffn);
    this.lo[at] = Number(v & 0xffff_ffffn);
  }

  /** Count the row written at `rows` as node `nodeGuid`, port `portNum`. */
  commit(nodeGuid: Guid, portNum: number): void {
    this.pending = false;
    const r = this.rows++;
    this.guids.push(nodeGuid);
    this.ports[r] = portNum;
  }

  build(): CounterTable {
    const n = this.rows;
    const { cap, hi, lo } = this;
    return {
      rows: n,
      nodeGuids: this.guids,
      portNums: this.ports.slice(0, n),
      columns: this.names.map((name, c) => ({ name, hi: hi.subarray(c * cap, c * cap + n), lo: lo.subarray(c * cap, c * cap + n) })),
    };
  }

  /**
   * Re-lay the columns out for `cap` rows and `cols` columns. Only the committed rows of a new
   * column are set absent: no 16 MB `fill` per table, since every committed row writes every
   * column (see the module comment) and the cells past `rows` are written before they count.
   */
  private resize(cap: number, cols: number): void {
    const old = this.cap;
    const move = (a: Uint32Array): Uint32Array => {
      const b = new Uint32Array(cap * cols);
      if (cap === old) {
        b.set(a);
        for (let c = a.length / old; c < cols; c++) b.fill(ABSENT, c * cap, c * cap + this.rows);
      } else {
        for (let c = 0; c < cols; c++) b.set(a.subarray(c * old, c * old + this.rows), c * cap);
      }
      return b;
    };
    this.hi = move(this.hi);
    this.lo = move(this.lo);
    this.cap = cap;
  }
}
