/**
 * GUIDs as the parsers read them: `parseGuidField` for one cell (`normalizeGuid` of
 * @ibwatch/fabric behind a fast path), and `GuidTable`, the interning of one file's GUIDs.
 *
 * GUID interning for one file. A 10k-GPU db_csv names each GUID in NODES, PORTS, LINKS,
 * PM_INFO and PM_DELTA (~200k cells for ~10k distinct GUIDs). Each distinct GUID is validated
 * and normalised once; every later occurrence returns the same canonical string, found by the
 * GUID's 64-bit value read straight from the line (no substring, no string hashing). The result
 * then holds one string per GUID and none of them keeps a read chunk alive (strings cut from a read chunk would).
 */
import { normalizeGuid } from '@ibwatch/fabric';
import type { Guid } from '@ibwatch/fabric';
import { decodeUtf8, hexValue } from './bytes.ts';

/** GUID cell → canonical form, undefined for `0x00`-style placeholders or garbage. */
export function parseGuidField(text: string | undefined): Guid | undefined {
  if (text === undefined) return undefined;
  // Fast path: ibdiagnet already prints `0x%016x`; only odd forms need normalizeGuid.
  if (text.length === 18 && text.charCodeAt(0) === 48 && text.charCodeAt(1) === 120) {
    let i = 2;
    for (; i < 18; i++) {
      const c = text.charCodeAt(i);
      if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) break;
    }
    if (i === 18) return text === '0x0000000000000000' ? undefined : text;
  }
  const g = normalizeGuid(text);
  return g === undefined || g === '0x0000000000000000' ? undefined : g;
}

export class GuidTable {
  /** Open addressing: slot i holds GUID `hi:lo` → `names[i]`; empty slots have no name. */
  private hi = new Int32Array(1 << 12);
  private lo = new Int32Array(1 << 12);
  private names: (Guid | undefined)[] = new Array<Guid | undefined>(1 << 12);
  private size = 0;

  /** Canonical GUID of a cell, undefined for `0x00`-style placeholders or garbage. */
  get(text: string): Guid | undefined {
    return this.getAt(text, 0, text.length);
  }

  /** {@link get} for `line.slice(start, end)`, without the slice in the common `0x%016x` case. */
  getAt(line: string, start: number, end: number): Guid | undefined {
    if (end - start !== 18 || line.charCodeAt(start) !== 48 || (line.charCodeAt(start + 1) | 32) !== 120) {
      return parseGuidField(line.slice(start, end));
    }
    let hi = 0;
    let lo = 0;
    for (let i = start + 2; i < start + 10; i++) {
      const d = hexValue(line.charCodeAt(i));
      if (d < 0) return parseGuidField(line.slice(start, end));
      hi = (hi << 4) | d;
    }
    for (let i = start + 10; i < end; i++) {
      const d = hexValue(line.charCodeAt(i));
      if (d < 0) return parseGuidField(line.slice(start, end));
      lo = (lo << 4) | d;
    }
    return this.lookup(hi, lo);
  }

  /**
   * {@link getAt} for a cell of raw bytes (the ASCII of `0x%016x` read as is). The previous
   * cell's 16 digits are kept: consecutive rows often name the same GUID (a switch's ports in
   * PORTS/PM_INFO/PM_DELTA), and comparing bytes is cheaper than reading and hashing them.
   */
  getBytes(bytes: Uint8Array, start: number, end: number): Guid | undefined {
    if (end - start !== 18 || bytes[start] !== 48 || (bytes[start + 1]! | 32) !== 120) {
      return parseGuidField(decodeUtf8(bytes, start, end));
    }
    if (this.viewOf !== bytes) {
      this.viewOf = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    // The 16 digits as four 32-bit words (their ASCII, read as is): four compares for a repeat.
    const v = this.view;
    const a = v.getUint32(start + 2);
    const b = v.getUint32(start + 6);
    const c = v.getUint32(start + 10);
    const d = v.getUint32(start + 14);
    if (this.lastGuid !== undefined && d === this.last3 && c === this.last2 && b === this.last1 && a === this.last0)
      return this.lastGuid;
    // Two digits per look-up: 8 of them for the 64-bit value.
    const hi = (PAIR[a >>> 16]! << 24) | (PAIR[a & 0xffff]! << 16) | (PAIR[b >>> 16]! << 8) | PAIR[b & 0xffff]!;
    const lo = (PAIR[c >>> 16]! << 24) | (PAIR[c & 0xffff]! << 16) | (PAIR[d >>> 16]! << 8) | PAIR[d & 0xffff]!;
    // A pair that is not two hex digits reads -1.
    if (
      (PAIR[a >>> 16]! |
        PAIR[a & 0xffff]! |
        PAIR[b >>> 16]! |
        PAIR[b & 0xffff]! |
        PAIR[c >>> 16]! |
        PAIR[c & 0xffff]! |
        PAIR[d >>> 16]! |
        PAIR[d & 0xffff]!) <
      0
    ) {
      return parseGuidField(decodeUtf8(bytes, start, end));
    }
    const guid = this.lookup(hi, lo);
    if (guid !== undefined) {
      this.last0 = a;
      this.last1 = b;
      this.last2 = c;
      this.last3 = d;
      this.lastGuid = guid;
    }
    return guid;
  }

  /** Distinct GUIDs held. */
  get count(): number {
    return this.size;
  }

  /**
   * Drops the reference to the bytes last read (kept to reuse their DataView), so that a table
   * kept from one input to the next does not keep the previous input alive.
   */
  forgetInput(): void {
    this.viewOf = undefined;
    this.view = new DataView(new ArrayBuffer(0));
  }

  /** The last GUID read by {@link getBytes}, as the four words of its digits. */
  private last0 = 0;
  private last1 = 0;
  private last2 = 0;
  private last3 = 0;
  private lastGuid: Guid | undefined;
  /** Big-endian 32-bit reads of the bytes of the chunk being read; made once per chunk. */
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  private viewOf: Uint8Array | undefined;

  /** The canonical string of GUID `hi:lo` (32-bit halves), made on first sight. */
  private lookup(hi: number, lo: number): Guid | undefined {
    if (hi === 0 && lo === 0) return undefined;
    const mask = this.hi.length - 1;
    let i = Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b) & mask;
    for (;;) {
      const name = this.names[i];
      if (name === undefined) break;
      if (this.hi[i] === hi && this.lo[i] === lo) return name;
      i = (i + 1) & mask;
    }
    // Made from its characters: the string shares nothing with the line (a slice of it would
    // keep its whole chunk alive), and it is one flat string, where `'0x' + a + b` of 18
    // characters was a cons string of three objects until first hashed (100k GUIDs at 45k GPUs).
    const canonical = guidString(hi, lo);
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.names[i] = canonical;
    if (++this.size * 2 > this.hi.length) this.grow();
    return canonical;
  }

  private grow(): void {
    const { hi, lo, names } = this;
    const n = hi.length * 2;
    this.hi = new Int32Array(n);
    this.lo = new Int32Array(n);
    this.names = new Array<Guid | undefined>(n);
    const mask = n - 1;
    for (let j = 0; j < hi.length; j++) {
      const name = names[j];
      if (name === undefined) continue;
      let i = Math.imul(hi[j] ^ Math.imul(lo[j], 0x9e3779b1), 0x85ebca6b) & mask;
      while (this.names[i] !== undefined) i = (i + 1) & mask;
      this.hi[i] = hi[j];
      this.lo[i] = lo[j];
      this.names[i] = name;
    }
  }
}

/** Value of each byte as a hex digit, -1 for any other byte. */
const HEX = Int8Array.from({ length: 256 }, (_, b) => hexValue(b));
/** Value of two hex digits read as a big-endian 16-bit word (`0x3132` = "12" = 0x12), -1 for any other pair. */
const PAIR = Int16Array.from({ length: 65536 }, (_, w) => {
  const h = HEX[w >>> 8]!;
  const l = HEX[w & 0xff]!;
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
});

/** Character code of each hex digit value (lower case, as `normalizeGuid` writes them). */
const DIGIT = Int32Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * `0x%016x` of GUID `hi:lo` from a table by nibble: `Number#toString(16)` cost ~250 ns a call,
 * and a 10k-GPU `ibqueryerrors` output makes ~20k GUIDs per sweep.
 */
function guidString(hi: number, lo: number): Guid {
  const d = DIGIT;
  return String.fromCharCode(
    48,
    120,
    d[(hi >>> 28) & 15]!,
    d[(hi >>> 24) & 15]!,
    d[(hi >>> 20) & 15]!,
    d[(hi >>> 16) & 15]!,
    d[(hi >>> 12) & 15]!,
    d[(hi >>> 8) & 15]!,
    d[(hi >>> 4) & 15]!,
    d[hi & 15]!,
    d[(lo >>> 28) & 15]!,
    d[(lo >>> 24) & 15]!,
    d[(lo >>> 20) & 15]!,
    d[(lo >>> 16) & 15]!,
    d[(lo >>> 12) & 15]!,
    d[(lo >>> 8) & 15]!,
    d[(lo >>> 4) & 15]!,
    d[lo & 15]!,
  );
}
