/**
 * db_csv PM_INFO / PM_DELTA reader, the hot loop of a big fabric: 2 × 40k rows × 50 counters
 * at 10k GPUs (40% of a 10k-GPU db_csv). Kept apart from the other section readers for that.
 *
 * The rows go into a {@link CounterTable} (columns of 32-bit halves), not into `PortCounters`
 * records: 80k records of 50 bigints each were most of the parse time and of the memory of a
 * 10k-GPU run (see counter-table.ts in @ibwatch/fabric). A plain decimal cell goes from the
 * row's BYTES to two integers (24 MB of the 60 MB file are these rows: a byte loop here is
 * what brought the directory towards its 3x-the-floor target, see bytes.ts); only odd cells
 * (sentinels, garbage) are decoded.
 *
 * Every column other than the keys is a counter, kept under its header name. Cell rules (the
 * same as {@link parseCounter}): `-1`, `N/A`, `NA`, empty and `0xfffffffffffffffe` mean "not
 * supported by this port" (absent, no warning); a negative, non-numeric or > 2^64 - 1 cell is
 * skipped and summed up in one warning per column at END_. A cell of exactly 2^64 - 1 is a
 * value (a counter at its maximum: saturated), not a sentinel.
 */
import type { CounterTable, Guid } from '@ibwatch/fabric';
import { decimalHalves, decodeUtf8, halves, hexValue } from '../common/bytes.ts';
import type { CsvRow } from './csv.ts';
import type { SectionContext, SectionReader } from './db-csv-cells.ts';
import { indexer, intCell, missing } from './db-csv-cells.ts';
import { PmTableWriter } from './pm-table.ts';
import { MAX_PORT_NUM, parseCounter, parseIntField } from './values.ts';

/** {@link PmReader.bases} of a column that is not a counter. */
const OTHER = -1;
const NODE = -2;
const PORT = -3;

/**
 * PM_INFO / PM_DELTA into a table handed to `done` at END_. A row's cells are written into the
 * table's next row while its bytes are walked; the row is only counted once its NodeGUID and
 * PortNumber are known good, so a skipped row leaves nothing behind (see pm-table.ts).
 */
export function pmReader(
  done: (table: CounterTable) => void,
  ctx: SectionContext,
  section: string,
  rowsHint = 0,
): SectionReader {
  return new PmReader(done, ctx, section, rowsHint);
}

/**
 * A class, not closures: every parse makes two readers, and V8 shares one feedback vector and
 * one optimised `rawRow` between instances of a class, while each new set of closures was
 * optimised again (context-specialised code), running its first thousands of rows unoptimised.
 */
class PmReader implements SectionReader {
  private readonly b: PmTableWriter;
  private node = -1;
  private port = -1;
  private counterIdx: number[] = [];
  private counterNames: string[] = [];
  /** Column → counter slot, -1 for other columns; slot → table column. */
  private slotOf = new Int32Array(0);
  private colOf: Int32Array = new Int32Array(0);
  private base: Int32Array = new Int32Array(0);
  /** Header columns `rawRow` stored a value in itself, told to the table at the next header or the end. */
  private stored = new Uint8Array(0);
  private baseCap = -1;
  // Invalid cells are summarised per column: one warning, not one per port.
  private readonly invalid = new Map<string, { count: number; line: number; text: string; reason: string }>();
  private bad: [string, string, string][] = [];

  constructor(
    private readonly done: (table: CounterTable) => void,
    private readonly ctx: SectionContext,
    private readonly section: string,
    rowsHint: number,
  ) {
    // Sized from PORTS (one PM row per port): growing 50 column pairs by doubling from 4096 rows,
    // then cutting them to size, allocated and copied ~100 MB per 10k-GPU file.
    this.b = new PmTableWriter(rowsHint > 0 ? rowsHint : 4096);
  }

  /** A cell that is not a plain decimal of up to 19 digits: hex, a sentinel, N/A, garbage. */
  private slowCell(text: string, k: number): void {
    const v = parseCounter(text);
    const b = this.b;
    if (typeof v === 'bigint') return b.setBigint(this.colOf[k]!, b.rows, v);
    b.setAbsent(this.colOf[k]!, b.rows);
    if (v !== null) this.bad.push([this.counterNames[k]!, text, v]);
  }

  /** `0x` + 1..16 hex digits read in place; false leaves the cell to `slowCell`. */
  private hexCell(bytes: Uint8Array, start: number, end: number, k: number): boolean {
    const len = end - start;
    if (len < 3 || len > 18 || bytes[start] !== 48 || (bytes[start + 1]! | 32) !== 120) return false;
    let hi = 0;
    let lo = 0;
    for (let i = start + 2; i < end; i++) {
      const d = hexValue(bytes[i]!);
      if (d < 0) return false;
      hi = ((hi << 4) | (lo >>> 28)) >>> 0;
      lo = ((lo << 4) | d) >>> 0;
    }
    const b = this.b;
    // `0xfffffffffffffffe`: unsupported 64-bit field (retransmission_per_sec in PM_DELTA).
    if (hi === 0xffff_ffff && lo === 0xffff_fffe) b.setAbsent(this.colOf[k]!, b.rows);
    else b.setHalves(this.colOf[k]!, b.rows, hi, lo);
    return true;
  }

  /** Note the row's invalid cells, check its keys, and count the row its cells went to. */
  private take(nodeGuid: Guid | undefined, portNum: number | undefined, lineNo: number): string | undefined {
    if (this.bad.length > 0) {
      for (const [name, text, reason] of this.bad) {
        const seen = this.invalid.get(name);
        if (seen) seen.count++;
        else this.invalid.set(name, { count: 1, line: lineNo, text, reason });
      }
      this.bad = [];
    }
    if (!nodeGuid) return 'bad NodeGUID';
    // Switch ports go up to 255 at most (see MAX_PORT_NUM).
    if (portNum === undefined || !Number.isInteger(portNum) || portNum < 0 || portNum > MAX_PORT_NUM)
      return 'bad PortNumber';
    this.b.commit(nodeGuid, portNum);
    return undefined;
  }

  header(names: string[]): string | undefined {
    this.tellStored();
    const ix = indexer(names);
    const node = (this.node = ix('NodeGUID'));
    const port = (this.port = ix('PortNumber', 'PortNum'));
    const keys = new Set([node, port, ix('PortGUID')]);
    const counterIdx: number[] = (this.counterIdx = []);
    const counterNames: string[] = (this.counterNames = []);
    names.forEach((n, i) => {
      if (!keys.has(i) && n) {
        counterIdx.push(i);
        counterNames.push(n);
      }
    });
    const problem = missing({ NodeGUID: node, PortNumber: port });
    if (problem) return problem;
    const slotOf = (this.slotOf = new Int32Array(names.length).fill(-1));
    counterIdx.forEach((col, k) => {
      slotOf[col] = k;
    });
    // Columns in header order, so a table lists them as the file does.
    this.colOf = this.b.columns(counterNames);
    this.stored = new Uint8Array(names.length);
    this.baseCap = -1;
    return undefined;
  }

  /**
   * Each column's offset in the table's arrays (`column * cap`), or NODE / PORT for the keys
   * and OTHER for a column that is not kept: one load per cell decides where it goes. Made
   * again when the table grows (its `cap` changes).
   */
  private bases(): Int32Array {
    const b = this.b;
    if (this.baseCap === b.cap) return this.base;
    const base = (this.base = new Int32Array(this.slotOf.length).fill(OTHER));
    this.slotOf.forEach((k, col) => {
      if (k >= 0) base[col] = this.colOf[k]! * b.cap;
    });
    if (this.node >= 0) base[this.node] = NODE;
    if (this.port >= 0) base[this.port] = PORT;
    this.baseCap = b.cap;
    return base;
  }

  rawRow(bytes: Uint8Array, from: number, to: number, lineNo: number, expected: number): string | undefined | false {
    // One pass over the bytes finds the commas and accumulates each cell's decimal value, so
    // a plain counter (nearly all of them) is never decoded, matched or re-read. A cell is
    // read digit by digit up to the first other byte: `bytes[to]` is the line's `\r`/`\n`.
    let nodeStart = -1;
    let nodeEnd = -1;
    let portNum: number | undefined;
    let portStart = -1;
    let portEnd = -1;
    let col = 0;
    // Locals, not fields: this loop runs for 4M cells at 10k GPUs.
    const b = this.b;
    b.reserve();
    const base = this.bases();
    const cols = base.length;
    const row = b.rows;
    const L = b.lo;
    const stored = this.stored;
    for (let i = from; ; i++) {
      const start = i;
      const at = col < cols ? base[col]! : OTHER;
      let c = bytes[i]!;
      // Only a quote that opens a cell changes how the row splits (csv.ts): the CSV path reads it.
      if (c === 34) return false;
      // `0,`, most cells: nothing to write (the row starts zeroed), unless it is a key.
      if (c === 48 && bytes[i + 1] === 44 && at >= OTHER) {
        i++;
        col++;
        continue;
      }
      // Up to 9 digits in int32 arithmetic, further digits as a double.
      let n = 0;
      while (c >= 48 && c <= 57 && i - start < 9) {
        n = (n * 10 + c - 48) | 0;
        c = bytes[++i]!;
      }
      let v = n;
      while (c >= 48 && c <= 57) {
        v = v * 10 + c - 48;
        c = bytes[++i]!;
      }
      const plain = c === 44 || i === to;
      // 1 to 15 digits: exact as a double. The row's cells start at 0 (pm-table.ts), so a 0
      // (most counters) is no store at all and a value under 2^32 one store.
      if (plain && at >= 0 && i - start - 1 < 15 && i > start) {
        if (v === 0) {
          // Nothing to write.
        } else if (v <= 0xffff_ffff) {
          L[at + row] = v;
          stored[col] = 1;
        } else b.setNumberAt(at, row, v);
      } else {
        while (i < to && c !== 44) c = bytes[++i]!;
        if (at >= 0) this.oddCell(bytes, start, i, plain, this.slotOf[col]!);
        else if (at === NODE) {
          nodeStart = start;
          nodeEnd = i;
        } else if (at === PORT) {
          portStart = start;
          portEnd = i;
          portNum = plain && i > start && i - start <= 15 ? v : undefined;
        }
      }
      col++;
      if (i >= to) break;
    }
    if (col !== expected) {
      this.bad = [];
      return `row has ${col} fields, header has ${expected}`;
    }
    if (portNum === undefined && portStart >= 0) portNum = parseIntField(decodeUtf8(bytes, portStart, portEnd));
    const nodeGuid = nodeStart >= 0 ? this.ctx.guids.getBytes(bytes, nodeStart, nodeEnd) : undefined;
    const problem = this.take(nodeGuid, portNum, lineNo);
    if (problem === undefined) return undefined;
    const bad1 = problem === 'bad NodeGUID';
    return `${problem} ${JSON.stringify(decodeUtf8(bytes, bad1 ? nodeStart : portStart, bad1 ? nodeEnd : portEnd))}`;
  }

  /** Counter cell `k` that is not 1-15 plain digits: 16-20 digits, `-1`, hex, N/A, garbage. */
  private oddCell(bytes: Uint8Array, start: number, end: number, plain: boolean, k: number): void {
    const b = this.b;
    const len = end - start;
    if (plain && len > 15 && len < 20) {
      // 16-19 digits always fit 64 bits.
      decimalHalves(bytes, start, end);
      b.setHalves(this.colOf[k]!, b.rows, halves.hi, halves.lo);
    } else if (len === 2 && bytes[start] === 45 && bytes[start + 1] === 49) {
      // `-1`: not supported (PortLoopingErrors on every port of the sample: `...,0,-1,0,0,0,0`).
      b.setAbsent(this.colOf[k]!, b.rows);
    } else if (plain || !this.hexCell(bytes, start, end, k)) this.slowCell(decodeUtf8(bytes, start, end), k);
  }

  row(r: CsvRow, line: number): string | undefined {
    this.b.reserve();
    for (let k = 0; k < this.counterIdx.length; k++) this.slowCell(r.text(this.counterIdx[k]!)!, k);
    const text = r.text(this.node);
    const problem = this.take(text === undefined ? undefined : this.ctx.guids.get(text), intCell(r, this.port), line);
    return problem === undefined
      ? undefined
      : `${problem} ${JSON.stringify(r.text(problem === 'bad NodeGUID' ? this.node : this.port))}`;
  }

  /** The table's columns that `rawRow` gave a value (see PmTableWriter.written). */
  private tellStored(): void {
    this.stored.forEach((s, col) => {
      if (s === 1) this.b.written(this.colOf[this.slotOf[col]!]!);
    });
  }

  end(): void {
    this.tellStored();
    for (const [name, s] of this.invalid) {
      this.ctx.warn(
        s.line,
        `${this.section} column ${name}: ${s.count} invalid value(s) skipped ` +
          `(first: ${JSON.stringify(s.text)}, ${s.reason})`,
      );
    }
    this.done(this.b.build());
  }
}
