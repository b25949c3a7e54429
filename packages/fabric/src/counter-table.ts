import type { CounterColumn, CounterName, CounterTable, Guid, PortCounters } from './types.ts';

/**
 * PM counters of many ports in columns of 32-bit halves: the form a whole-fabric sweep is
 * parsed into, compared in and kept as the next sweep's baseline.
 *
 * Why not {@link PortCounters} records: a 10k-GPU sweep is ~69k ports x 20-50 counters. As
 * records that is millions of bigints and ~69k dictionary-mode objects per sweep — building
 * them cost more than reading the text (`pnpm bench`), and two sweeps of them (baseline and
 * current) were most of the collector's memory. Columns of `Uint32Array` pairs hold any 64-bit
 * value exactly, allocate nothing per value, and the whole comparison of two sweeps is a loop
 * over integers. Ports that need a closer look are turned into records one at a time
 * ({@link tableRow}).
 *
 * A cell that is absent (column not printed for that port, "not supported") is marked in the
 * column's `absent` mask, never by a value: every 64-bit pattern is a counter value. (All ones
 * used to mean "absent", so a PortCountersExtended counter saturated at 2^64 - 1 vanished
 * without a word: issue 14.)
 */
// The table's shape lives in types.ts with the snapshot that carries it (no import cycle).
export type { CounterColumn, CounterTable } from './types.ts';

const TWO32 = 4_294_967_296;

export function isAbsent(col: CounterColumn, row: number): boolean {
  return col.absent !== undefined && col.absent[row] === 1;
}

/** The value of one cell, undefined when absent. */
export function cellValue(col: CounterColumn, row: number): bigint | undefined {
  if (col.absent !== undefined && col.absent[row] === 1) return undefined;
  const hi = col.hi[row]!;
  const lo = col.lo[row]!;
  if (hi === 0) return lo < SMALL.length ? SMALL[lo]! : BigInt(lo);
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Shared small bigints: most error counters are 0 or small. */
const SMALL: bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

export function columnIndex(t: CounterTable): Map<CounterName, number> {
  return new Map(t.columns.map((c, i) => [c.name, i]));
}

/** One row as a {@link PortCounters} record (absent cells left out). */
export function tableRow(t: CounterTable, row: number): PortCounters {
  const counters: Record<CounterName, bigint> = {};
  for (const c of t.columns) {
    const v = cellValue(c, row);
    if (v !== undefined) counters[c.name] = v;
  }
  const pc: PortCounters = { nodeGuid: t.nodeGuids[row]!, portNum: t.portNums[row]!, counters };
  if (t.extended?.[row]) pc.extended = true;
  return pc;
}

export function tableToPortCounters(t: CounterTable): PortCounters[] {
  const out: PortCounters[] = [];
  for (let r = 0; r < t.rows; r++) out.push(tableRow(t, r));
  return out;
}

export function tableFromPortCounters(list: readonly PortCounters[]): CounterTable {
  const b = new CounterTableBuilder();
  for (const p of list) {
    const r = b.addRow(p.nodeGuid, p.portNum, p.extended);
    for (const k in p.counters) b.setBigint(b.column(k), r, p.counters[k]!);
  }
  return b.build();
}

/** A mask of `n` rows, all absent. */
export function allAbsent(n: number): Uint8Array {
  return new Uint8Array(n).fill(1);
}

/** `mask` when it marks a row of the first `n` absent, else undefined (no mask needed). */
export function usedMask(mask: Uint8Array | undefined, n: number): Uint8Array | undefined {
  if (mask === undefined) return undefined;
  const i = mask.indexOf(1);
  return i !== -1 && i < n ? mask : undefined;
}

/**
 * Grows a {@link CounterTable} row by row. Columns may appear at any row (earlier rows read
 * absent), and a cell never set is absent. Values are set from numbers, bigints or decimal
 * digits inside a string, the last without creating a substring or a bigint.
 */
export class CounterTableBuilder {
  private cap: number;
  private n = 0;
  private readonly guids: Guid[] = [];
  private ports: Uint16Array;
  private ext: Uint8Array | undefined;
  private readonly cols: CounterColumn[] = [];
  private readonly index = new Map<CounterName, number>();

  constructor(capacity = 1024) {
    this.cap = Math.max(16, capacity);
    this.ports = new Uint16Array(this.cap);
  }

  get rows(): number {
    return this.n;
  }

  /** Index of a column, added (absent in every row so far) when new. */
  column(name: CounterName): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.cols.length;
      this.cols.push({
        name,
        hi: new Uint32Array(this.cap),
        lo: new Uint32Array(this.cap),
        absent: allAbsent(this.cap),
      });
      this.index.set(name, i);
    }
    return i;
  }

  addRow(nodeGuid: Guid, portNum: number, extended?: boolean): number {
    if (this.n === this.cap) this.grow();
    const r = this.n++;
    this.guids.push(nodeGuid);
    this.ports[r] = portNum;
    if (extended) (this.ext ??= new Uint8Array(this.cap))[r] = 1;
    return r;
  }

  setNumber(col: number, row: number, v: number): void {
    const c = this.cols[col]!;
    const lo = v >>> 0;
    c.lo[row] = lo;
    c.hi[row] = (v - lo) / TWO32;
    c.absent![row] = 0;
  }

  /** Both 32-bit halves at once (a hex cell read digit by digit). */
  setHalves(col: number, row: number, hi: number, lo: number): void {
    const c = this.cols[col]!;
    c.hi[row] = hi;
    c.lo[row] = lo;
    c.absent![row] = 0;
  }

  setBigint(col: number, row: number, v: bigint): void {
    this.setHalves(col, row, Number((v >> 32n) & 0xffff_ffffn), Number(v & 0xffff_ffffn));
  }

  /** The cell has no value (a cell never set is absent too). */
  setAbsent(col: number, row: number): void {
    const c = this.cols[col]!;
    c.hi[row] = 0;
    c.lo[row] = 0;
    c.absent![row] = 1;
  }

  /**
   * Decimal digits `text[start, end)` into a cell. Returns false (cell untouched) when the span
   * is empty, holds a non-digit, or the value does not fit in 64 bits.
   */
  setDecimal(col: number, row: number, text: string, start: number, end: number): boolean {
    const len = end - start;
    if (len <= 0) return false;
    if (len <= 15) {
      let v = 0;
      for (let i = start; i < end; i++) {
        const d = text.charCodeAt(i) - 48;
        if (d < 0 || d > 9) return false;
        v = v * 10 + d;
      }
      this.setNumber(col, row, v);
      return true;
    }
    // 16 to 20 digits (only 64-bit traffic counters get there): through a bigint. The parsers'
    // hot path reads bytes and has its own exact digit loop (packages/parsers/src/bytes.ts).
    for (let i = start; i < end; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return false;
    }
    if (len > 20) return false;
    const v = BigInt(text.slice(start, end));
    if (v > 0xffff_ffff_ffff_ffffn) return false;
    this.setBigint(col, row, v);
    return true;
  }

  build(): CounterTable {
    const n = this.n;
    const cut = <A extends Uint32Array | Uint8Array>(a: A): A => (a.length === n ? a : (a.slice(0, n) as A));
    return {
      rows: n,
      nodeGuids: this.guids,
      portNums: this.ports.slice(0, n),
      ...(this.ext ? { extended: this.ext.slice(0, n) } : {}),
      columns: this.cols.map((c) => {
        const absent = usedMask(c.absent, n);
        return { name: c.name, hi: cut(c.hi), lo: cut(c.lo), ...(absent ? { absent: cut(absent) } : {}) };
      }),
    };
  }

  private grow(): void {
    const cap = this.cap * 2;
    const widen = (a: Uint32Array) => {
      const b = new Uint32Array(cap);
      b.set(a);
      return b;
    };
    for (const c of this.cols) {
      c.hi = widen(c.hi);
      c.lo = widen(c.lo);
      const absent = allAbsent(cap);
      absent.set(c.absent!);
      c.absent = absent;
    }
    const p = new Uint16Array(cap);
    p.set(this.ports);
    this.ports = p;
    if (this.ext) {
      const e = new Uint8Array(cap);
      e.set(this.ext);
      this.ext = e;
    }
    this.cap = cap;
  }
}
