/**
 * One pass over a db_csv row's bytes that keeps only the cells a reader asked for: PORTS has
 * 54 columns of which a port record takes 12 (63k rows at 10k GPUs). `CsvRow` notes where every
 * field starts and ends and the reader then reads its cells again; here the wanted cells are
 * read as they are passed, a plain decimal straight to its value, and the rest only skipped.
 *
 * Cells read as `CsvRow` + `intCell`/`guidCell` would read them (db-csv-sections.ts); a row with a
 * field that opens with `"` is left to that path (a quoted field may hold commas).
 */
import { decodeUtf8 } from '../common/bytes.ts';
import type { GuidTable } from '../common/guids.ts';
import { parseIntField } from './values.ts';

export class PlannedCells {
  /** Header index of each wanted column, ascending, and the slot it fills. */
  private readonly wanted: Int32Array;
  private readonly slotOf: Int32Array;
  /** 1 for a slot whose column the header has. */
  private readonly has: Uint8Array;
  private bytes: Uint8Array = new Uint8Array(0);
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  /** A plain decimal cell's value (1 to 15 digits), else -1. */
  private readonly ints: Float64Array;

  /**
   * `columns[slot]` is the header index of that slot's column, -1 when the header lacks it; two
   * slots may not name one column (the readers ask for distinct names).
   */
  constructor(columns: readonly number[]) {
    const present = columns
      .map((col, slot) => ({ col, slot }))
      .filter((c) => c.col >= 0)
      .sort((a, b) => a.col - b.col);
    if (present.some((c, k) => k > 0 && c.col === present[k - 1]!.col))
      throw new Error('PlannedCells: two slots of one column');
    this.wanted = Int32Array.from(present, (c) => c.col);
    this.slotOf = Int32Array.from(present, (c) => c.slot);
    this.has = new Uint8Array(columns.length);
    for (const c of present) this.has[c.slot] = 1;
    this.starts = new Int32Array(columns.length);
    this.ends = new Int32Array(columns.length);
    this.ints = new Float64Array(columns.length);
  }

  /**
   * Read row `bytes[from, to)` (`bytes[to]` is its `\r` or `\n`); returns its number of fields,
   * or -1 when a field opens with a quote. Fields no one asked for are passed by looking for
   * their commas only: 42 of PORTS' 54, and every field after the last wanted one.
   */
  scan(bytes: Uint8Array, from: number, to: number): number {
    this.bytes = bytes;
    const wanted = this.wanted;
    let i = from;
    let col = 0;
    for (let w = 0; w < wanted.length; w++) {
      const target = wanted[w]!;
      // Fields before the wanted one.
      for (; col < target; col++) {
        if (bytes[i] === 34) return -1;
        while (i < to && bytes[i] !== 44) i++;
        if (i === to) return col + 1;
        i++;
      }
      // The wanted field: a plain decimal is summed as it is passed.
      const start = i;
      let c = bytes[i]!;
      if (c === 34) return -1;
      let v = 0;
      while (c >= 48 && c <= 57) {
        v = v * 10 + c - 48;
        c = bytes[++i]!;
      }
      const digits = i - start;
      while (i < to && c !== 44) c = bytes[++i]!;
      const slot = this.slotOf[w]!;
      this.ints[slot] = digits > 0 && digits <= 15 && i - start === digits ? v : -1;
      this.starts[slot] = start;
      this.ends[slot] = i;
      col++;
      if (i === to) return col;
      i++;
    }
    // The fields after the last wanted one are only counted.
    for (;;) {
      if (bytes[i] === 34) return -1;
      while (i < to && bytes[i] !== 44) i++;
      col++;
      if (i === to) return col;
      i++;
    }
  }

  /** Text of a slot's cell; undefined when the header lacks its column. */
  text(slot: number): string | undefined {
    return this.has[slot] ? decodeUtf8(this.bytes, this.starts[slot]!, this.ends[slot]!) : undefined;
  }

  /** Integer cell (plain decimal in place, else as `parseIntField` reads its text). */
  int(slot: number): number | undefined {
    if (!this.has[slot]) return undefined;
    const v = this.ints[slot]!;
    // As a small integer: an element of a Float64Array reads as a heap number, and a record
    // field that once held one stays a boxed double in every record (PORTS' PortNum and LID:
    // 545k boxes at 45k GPUs, each copied by the young-generation GC).
    if (v >= 0) return v <= 0x7fffffff ? v | 0 : v;
    return parseIntField(this.text(slot));
  }

  guid(slot: number, guids: GuidTable): string | undefined {
    return this.has[slot] ? guids.getBytes(this.bytes, this.starts[slot]!, this.ends[slot]!) : undefined;
  }
}
