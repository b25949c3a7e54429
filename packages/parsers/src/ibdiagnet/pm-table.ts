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
 * and most are 0. (The reader writes every other cell, absent ones too, into the column's absent
 * mask; a column is only added by the header, so the columns are all there before the first row.)
 */
import type { CounterColumn, CounterTable, Guid } from '@ibwatch/fabric';
import { usedMask } from '@ibwatch/fabric';

const TWO32 = 4_294_967_296;

export class PmTableWriter {
  /** Committed rows; the row being written is `rows`. */
  rows = 0;
  /** Rows each column can hold: column `c`'s low halves are `lo[c * cap, (c + 1) * cap)`. */
  cap: number;
  private readonly guids: Guid[] = [];
  private ports: Uint16Array;
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  /**
   * All columns' low halves in one array, column after column: a cell is `lo[c * cap + row]`,
   * one store at a computed index where an array of per-column arrays cost two more loads per
   * cell (4M cells at 10k GPUs); `build` hands out views, so nothing is copied.
   */
  lo: Uint32Array;
  /**
   * High halves, a column's array made at its first value of 2^32 or more (or absent cell):
   * most counters never get there, and zeroed arrays for all of them were half of the 55 MB a
   * 10k-GPU file's two tables took (and of the time to allocate them).
   */
  private readonly hi: (Uint32Array | undefined)[] = [];
  /** Absent cells, a column's mask made at its first one (`-1`, `N/A`: a few columns only). */
  private readonly absent: (Uint8Array | undefined)[] = [];
  /**
   * Columns given a low half other than 0 in some row (refused rows too). The others are 0 in
   * every row, and `build` hands them out as the shared zeros, not as views of `lo`: their part
   * of `lo` was never written, so its pages are not even mapped yet, and the first read of each
   * page is a page fault (~40 such columns x 272k rows per table at 45k GPUs: ~0.2 s of faults
   * for whichever step read them first).
   */
  private readonly valued: boolean[] = [];
  /** A row was reserved and not committed yet. */
  private pending = false;

  constructor(capacity: number) {
    this.cap = Math.max(16, capacity);
    this.ports = new Uint16Array(this.cap);
    this.lo = new Uint32Array(0);
  }

  /** Index of each column of `names`, those not there yet added (absent in every row). */
  columns(names: readonly string[]): Int32Array {
    const out = new Int32Array(names.length);
    const before = this.names.length;
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
    if (this.names.length !== before) {
      const lo = new Uint32Array(this.cap * this.names.length);
      lo.set(this.lo);
      this.lo = lo;
      // The committed rows of a new column are absent.
      if (this.rows > 0) {
        for (let c = before; c < this.names.length; c++) this.absentOf(c).fill(1, 0, this.rows);
      }
    }
    return out;
  }

  /** Column `col`'s high halves, made (zeroed) on first use. */
  private highs(col: number): Uint32Array {
    return (this.hi[col] ??= new Uint32Array(this.cap));
  }

  /** Column `col`'s absent mask, made (nothing absent) on first use. */
  private absentOf(col: number): Uint8Array {
    return (this.absent[col] ??= new Uint8Array(this.cap));
  }

  /** Make room for the row about to be written (index `rows`); call before its cells. */
  reserve(): void {
    if (this.pending) {
      // The last row written was refused: its cells back to 0.
      const { hi, lo, cap, rows, absent } = this;
      for (let at = rows; at < lo.length; at += cap) lo[at] = 0;
      for (const h of hi) if (h !== undefined) h[rows] = 0;
      for (const a of absent) if (a !== undefined) a[rows] = 0;
    }
    this.pending = true;
    if (this.rows === this.cap) this.grow();
  }

  /** Value `v` (an integer 0..2^53) at `at + row`, where `at` is `column * cap`. */
  setNumberAt(at: number, row: number, v: number): void {
    const lo = v >>> 0;
    const col = at / this.cap;
    this.lo[at + row] = lo;
    if (lo !== 0) this.valued[col] = true;
    this.highs(col)[row] = (v - lo) / TWO32;
  }

  setNumber(col: number, row: number, v: number): void {
    this.setNumberAt(col * this.cap, row, v);
  }

  setHalves(col: number, row: number, hi: number, lo: number): void {
    this.lo[col * this.cap + row] = lo;
    if (lo !== 0) this.valued[col] = true;
    if (hi !== 0 || this.hi[col] !== undefined) this.highs(col)[row] = hi;
  }

  /**
   * Column `col` was given a low half other than 0 by a writer that stores into `lo` itself
   * (db-csv-pm.ts); must be said before `build`.
   */
  written(col: number): void {
    this.valued[col] = true;
  }

  /** The row's cell in `col` has no value (its halves stay 0, as the row started). */
  setAbsent(col: number, row: number): void {
    this.absentOf(col)[row] = 1;
  }

  setBigint(col: number, row: number, v: bigint): void {
    this.setHalves(col, row, Number((v >> 32n) & 0xffff_ffffn), Number(v & 0xffff_ffffn));
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
    const { cap, hi, lo, absent } = this;
    // Columns that never reached 2^32 share one array of zeros (tables are read, never written),
    // and so do the low halves of columns that are 0 in every row.
    let zeros: Uint32Array | undefined;
    return {
      rows: n,
      nodeGuids: this.guids,
      portNums: this.ports.slice(0, n),
      columns: this.names.map((name, c): CounterColumn => {
        const col: CounterColumn = {
          name,
          hi: hi[c]?.subarray(0, n) ?? (zeros ??= new Uint32Array(n)),
          lo: this.valued[c] === true ? lo.subarray(c * cap, c * cap + n) : (zeros ??= new Uint32Array(n)),
        };
        const mask = usedMask(absent[c], n);
        if (mask !== undefined) col.absent = mask.subarray(0, n);
        return col;
      }),
    };
  }

  /**
   * Twice the rows. Only the committed rows are copied: the rows past them start at 0 in the new
   * arrays, as the module comment wants a row to start.
   */
  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    const p = new Uint16Array(cap);
    p.set(this.ports);
    this.ports = p;
    const cols = this.names.length;
    const lo = new Uint32Array(cap * cols);
    for (let c = 0; c < cols; c++) lo.set(this.lo.subarray(c * old, c * old + this.rows), c * cap);
    this.lo = lo;
    const rows = this.rows;
    this.hi.forEach((h, c) => {
      if (h !== undefined) (this.hi[c] = new Uint32Array(cap)).set(h.subarray(0, rows));
    });
    this.absent.forEach((a, c) => {
      if (a !== undefined) (this.absent[c] = new Uint8Array(cap)).set(a.subarray(0, rows));
    });
    this.cap = cap;
  }
}
