/**
 * One-line CSV splitting for db_csv rows. ibdiagnet quotes only text fields (NodeDesc
 * `"MF0;ib-switch-sequoia:MQM9700/U1"`, warning Summary) and never writes a newline inside a
 * field, so a row is always one line. Most rows hold no quote at all: those take the plain
 * `split(',')` fast path, which is several times faster than a character loop.
 */

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
 * One CSV row as field offsets into the line, re-used for every row of a file: readers parse
 * the few cells they need in place (`parseIntAt`, a `GuidTable`) instead of getting one
 * substring per cell (PORTS has 54 columns of which the dashboard reads 12). Quoting follows
 * {@link splitCsvRow}; a field with `""` or text after its closing quote is decoded up front.
 */
export class CsvRow {
  line = '';
  /** Number of fields of the last `scan`. */
  count = 0;
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  /** Decoded text of the fields whose text is not simply `line.slice(start, end)`. */
  private decoded: (string | undefined)[] = [];
  private hasDecoded = false;

  /**
   * Find the fields of `line.slice(from, to)` (offsets stay relative to `line`, so a row can be
   * read straight out of a read chunk); false when a quoted field is not closed (a truncated line).
   */
  scan(line: string, from = 0, to = line.length): boolean {
    this.line = line;
    this.count = 0;
    if (this.hasDecoded) {
      this.decoded = [];
      this.hasDecoded = false;
    }
    const n = to;
    let i = from;
    for (;;) {
      if (this.count === this.starts.length) this.grow();
      const k = this.count++;
      if (i < n && line.charCodeAt(i) === 34) {
        const q = line.indexOf('"', i + 1);
        if (q === -1 || q >= n) return false;
        if (q + 1 === n || line.charCodeAt(q + 1) === 44) {
          this.starts[k] = i + 1;
          this.ends[k] = q;
          if (q + 1 === n) return true;
          i = q + 2;
          continue;
        }
        const next = this.decodeQuoted(line, i, n, k);
        if (next === -2) return false;
        if (next === -1) return true;
        i = next;
        continue;
      }
      let comma = line.indexOf(',', i);
      if (comma >= n) comma = -1;
      this.starts[k] = i;
      this.ends[k] = comma === -1 ? n : comma;
      if (comma === -1) return true;
      i = comma + 1;
    }
  }

  /** Text of field `i`; undefined for a column the header lacks (`i` < 0). */
  text(i: number): string | undefined {
    if (i < 0 || i >= this.count) return undefined;
    if (this.hasDecoded) {
      const d = this.decoded[i];
      if (d !== undefined) return d;
    }
    return this.line.slice(this.starts[i], this.ends[i]);
  }

  /** Every field as a string (for the few rows that need them all, e.g. RUN_INFO). */
  fields(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.text(i)!);
    return out;
  }

  /** True when field `i` is read from `line` as is (no unescaping needed). */
  plain(i: number): boolean {
    return !this.hasDecoded || this.decoded[i] === undefined;
  }

  /** `"a""b"x` style field at `i`: returns where the next field starts, -1 at the end, -2 when unclosed. */
  private decodeQuoted(line: string, i: number, n: number, k: number): number {
    let value = '';
    let j = i + 1;
    for (;;) {
      const q = line.indexOf('"', j);
      if (q === -1 || q >= n) return -2;
      value += line.slice(j, q);
      if (line.charCodeAt(q + 1) === 34) {
        value += '"';
        j = q + 2;
        continue;
      }
      i = q + 1;
      break;
    }
    let comma = line.indexOf(',', i);
    if (comma >= n) comma = -1;
    const end = comma === -1 ? n : comma;
    this.decoded[k] = value + line.slice(i, end);
    this.hasDecoded = true;
    this.starts[k] = i;
    this.ends[k] = end;
    return comma === -1 ? -1 : comma + 1;
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
