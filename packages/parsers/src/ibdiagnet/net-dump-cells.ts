/**
 * The cells of one .net_dump port row, read from a decoded line or in place from the file's
 * bytes. Both give what `line.split(':')` then `trim()` gave (the last cell keeps any further
 * `:`), so one row-builder serves both; the byte form makes no string per line and interns the
 * cell texts, which repeat on every row (`ACT`, `LINK UP`, `RS_FEC_544_514`, `1/17/1`).
 */
import type { Guid } from '@ibwatch/fabric';
import { AsciiInterner, plainInt } from '../common/bytes.ts';
import type { GuidTable } from '../common/guids.ts';
import { parseIntField } from './values.ts';

/** Cell `i` of the current row; every method returns undefined for `i` < 0 (no such column). */
export interface PortCells {
  /** Trimmed text. */
  text(i: number): string | undefined;
  /** Integer (decimal or `0x` hex), undefined for `N/A`, empty or garbage. */
  int(i: number): number | undefined;
  /** Canonical GUID, undefined for empty, `N/A` or garbage. */
  guid(i: number): Guid | undefined;
  /** Trimmed text without one pair of surrounding `"`; undefined when it is empty or `N/A` before that. */
  description(i: number): string | undefined;
}

/** A cell's text, undefined when it is empty or `N/A` (what a DOWN port prints for most of them). */
export const na = (s: string | undefined): string | undefined =>
  s === undefined || s === '' || s === 'N/A' ? undefined : s;
const quoted = (s: string): boolean => s.length >= 2 && s.charCodeAt(0) === 34 && s.charCodeAt(s.length - 1) === 34;

/** `bytes[s, e)` is empty or `N/A`. */
const isNa = (b: Uint8Array, s: number, e: number): boolean =>
  s === e || (e - s === 3 && b[s] === 78 && b[s + 1] === 47 && b[s + 2] === 65);

/** A character `trim` removes other than the space: tab..CR, and any from U+00A0 on (it may be one). */
const isOddEdge = (c: number): boolean => (c >= 9 && c <= 13) || c >= 0xa0;

/** Cells of a decoded line whose first `width - 1` colons are in `colon`. */
export class LineCells implements PortCells {
  private line = '';
  private colon: Int32Array = new Int32Array(0);
  private last = 0;

  constructor(private readonly guids: GuidTable) {}

  of(line: string, colon: Int32Array, width: number): this {
    this.line = line;
    this.colon = colon;
    this.last = width - 1;
    return this;
  }

  /** One substring per cell instead of an array of 13 and a trimmed copy of each. */
  text(i: number): string | undefined {
    if (i < 0) return undefined;
    const line = this.line;
    const s0 = i === 0 ? 0 : this.colon[i - 1]! + 1;
    const e0 = i === this.last ? line.length : this.colon[i]!;
    let s = s0;
    let e = e0;
    while (s < e && line.charCodeAt(s) === 32) s++;
    while (e > s && line.charCodeAt(e - 1) === 32) e--;
    // Other whitespace at an edge (tab, NBSP, U+2028...): `trim` knows them all.
    if (s < e && (isOddEdge(line.charCodeAt(s)) || isOddEdge(line.charCodeAt(e - 1)))) return line.slice(s0, e0).trim();
    return line.slice(s, e);
  }

  int(i: number): number | undefined {
    return parseIntField(this.text(i));
  }

  guid(i: number): Guid | undefined {
    const t = na(this.text(i));
    return t === undefined ? undefined : this.guids.get(t);
  }

  description(i: number): string | undefined {
    const t = na(this.text(i));
    if (t === undefined) return undefined;
    return quoted(t) ? t.slice(1, -1) : t;
  }
}

/**
 * Cells of the row `bytes[from, end)`, all printable ASCII (the caller checks), so the only
 * whitespace `trim` could remove is the space.
 */
export class ByteCells implements PortCells {
  private bytes: Uint8Array = new Uint8Array(0);
  private from = 0;
  private end = 0;
  private colon: Int32Array = new Int32Array(0);
  private last = 0;
  private s = 0;
  private e = 0;
  private readonly texts = new AsciiInterner();

  constructor(private readonly guids: GuidTable) {}

  of(bytes: Uint8Array, from: number, end: number, colon: Int32Array, width: number): this {
    this.bytes = bytes;
    this.from = from;
    this.end = end;
    this.colon = colon;
    this.last = width - 1;
    return this;
  }

  /** Sets `s`/`e` to the trimmed span of cell `i` (`i` >= 0). */
  private span(i: number): void {
    const b = this.bytes;
    let s = i === 0 ? this.from : this.colon[i - 1]! + 1;
    let e = i === this.last ? this.end : this.colon[i]!;
    while (s < e && b[s] === 32) s++;
    while (e > s && b[e - 1] === 32) e--;
    this.s = s;
    this.e = e;
  }

  text(i: number): string | undefined {
    if (i < 0) return undefined;
    this.span(i);
    return this.texts.get(this.bytes, this.s, this.e);
  }

  int(i: number): number | undefined {
    if (i < 0) return undefined;
    this.span(i);
    const v = plainInt(this.bytes, this.s, this.e);
    return v >= 0 ? v : parseIntField(this.texts.get(this.bytes, this.s, this.e));
  }

  guid(i: number): Guid | undefined {
    if (i < 0) return undefined;
    this.span(i);
    const { bytes: b, s, e } = this;
    // Empty or `N/A` (a DOWN port's `Neighbor Guid` is blank).
    if (isNa(b, s, e)) return undefined;
    return this.guids.getBytes(b, s, e);
  }

  description(i: number): string | undefined {
    if (i < 0) return undefined;
    this.span(i);
    const { bytes: b, s, e } = this;
    if (isNa(b, s, e)) return undefined;
    const q = e - s >= 2 && b[s] === 34 && b[e - 1] === 34;
    return q ? this.texts.get(b, s + 1, e - 1) : this.texts.get(b, s, e);
  }
}
