/**
 * One-line CSV splitting for db_csv: headers as text, data rows as bytes. ibdiagnet quotes only
 * text fields (NodeDesc `"MF0;ib-switch-sequoia:MQM9700/U1"`, warning Summary) and never writes a newline inside a
 * field, so a row is always one line. Most rows hold no quote at all: those take the plain
 * `split(',')` fast path, which is several times faster than a character loop.
 */
import { decodeUtf8 } from '../common/bytes.ts';

/** Split one CSV row; undefined when a quoted field is not closed (a truncated line). */
export function splitCsvRow(line: string): string[] | undefined {
  if (line.indexOf('"') === -1) return line.split(',');
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (i < n && line.charCodeAt(i) === 34) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q === -1) return undefined;
        value += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // Text after a closing quote up to the comma is kept (lenient, as `csv` readers are).
      const comma = line.indexOf(',', i);
      const tail = comma === -1 ? line.slice(i) : line.slice(i, comma);
      out.push(value + tail);
      if (comma === -1) return out;
      i = comma + 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}

/**
 * One CSV row as field offsets into its bytes, re-used for every row of a file: readers parse
 * the few cells they need in place (`plainInt`, a `GuidTable`) instead of getting one string
 * per cell (PORTS has 54 columns of which the dashboard reads 12). Quoting follows
 * {@link splitCsvRow}; a field with `""` or text after its closing quote is decoded up front.
 */
export class CsvRow {
  bytes: Uint8Array = new Uint8Array(0);
  /** Number of fields of the last `scan`. */
  count = 0;
  /**
   * First field of the last `scan` that holds a quote without opening with one, else -1: text
   * before an opening quote (`xx"MF0;ib-switch-sequoia:MQM9700/U1",65,...`). ibdiagnet opens
   * every text field with its quote, so such a row is damaged, and its cells would be taken
   * with the quotes inside them.
   */
  stray = -1;
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  /** Decoded text of the fields whose text is not simply their bytes. */
  private decoded: (string | undefined)[] = [];
  private hasDecoded = false;

  /**
   * Find the fields of `bytes[from, to)` (offsets stay relative to `bytes`, so a row is read
   * straight out of a read chunk); false when a quoted field is not closed (a truncated line).
   */
  scan(bytes: Uint8Array, from: number, to: number): boolean {
    this.bytes = bytes;
    this.count = 0;
    this.stray = -1;
    if (this.hasDecoded) {
      this.decoded = [];
      this.hasDecoded = false;
    }
    const n = to;
    let i = from;
    for (;;) {
      if (this.count === this.starts.length) this.grow();
      const k = this.count++;
      if (i < n && bytes[i] === 34) {
        let q = i + 1;
        while (q < n && bytes[q] !== 34) q++;
        if (q >= n) return false;
        if (q + 1 === n || bytes[q + 1] === 44) {
          this.starts[k] = i + 1;
          this.ends[k] = q;
          if (q + 1 === n) return true;
          i = q + 2;
          continue;
        }
        const next = this.decodeQuoted(bytes, i, n, k);
        if (next === -2) return false;
        if (next === -1) return true;
        i = next;
        continue;
      }
      this.starts[k] = i;
      while (i < n && bytes[i] !== 44) {
        if (bytes[i] === 34 && this.stray < 0) this.stray = k;
        i++;
      }
      this.ends[k] = i;
      if (i === n) return true;
      i++;
    }
  }

  /** Text of field `i`; undefined for a column the header lacks (`i` < 0). */
  text(i: number): string | undefined {
    if (i < 0 || i >= this.count) return undefined;
    if (this.hasDecoded) {
      const d = this.decoded[i];
      if (d !== undefined) return d;
    }
    return decodeUtf8(this.bytes, this.starts[i], this.ends[i]);
  }

  /** Every field as a string (for the few rows that need them all, e.g. RUN_INFO). */
  fields(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.text(i)!);
    return out;
  }

  /** True when field `i` is read from `bytes` as is (no unescaping needed). */
  plain(i: number): boolean {
    return !this.hasDecoded || this.decoded[i] === undefined;
  }

  /** `"a""b"x` style field at `i`: returns where the next field starts, -1 at the end, -2 when unclosed. */
  private decodeQuoted(bytes: Uint8Array, i: number, n: number, k: number): number {
    let value = '';
    let j = i + 1;
    for (;;) {
      let q = j;
      while (q < n && bytes[q] !== 34) q++;
      if (q >= n) return -2;
      value += decodeUtf8(bytes, j, q);
      if (bytes[q + 1] === 34 && q + 1 < n) {
        value += '"';
        j = q + 2;
        continue;
      }
      i = q + 1;
      break;
    }
    let comma = i;
    while (comma < n && bytes[comma] !== 44) comma++;
    this.decoded[k] = value + decodeUtf8(bytes, i, comma);
    this.hasDecoded = true;
    this.starts[k] = i;
    this.ends[k] = comma;
    return comma === n ? -1 : comma + 1;
  }

  private grow(): void {
    const s = new Int32Array(this.starts.length * 2);
    s.set(this.starts);
    this.starts = s;
    const e = new Int32Array(this.ends.length * 2);
    e.set(this.ends);
    this.ends = e;
  }
}
