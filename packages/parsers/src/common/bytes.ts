/**
 * Tool output as bytes. The big inputs (a 60 MB ibdiagnet2.db_csv, a 21 MB `ibqueryerrors
 * --counters` stdout at 10k GPUs) are parsed from the bytes as read rather than from a decoded
 * string: on the 2-core build machine any JS loop over a string with `charCodeAt` cost 2.5-5 ns
 * per character, while the floor (Node's native UTF-8 decode + `indexOf` line split) is
 * ~1.5 ns per byte, so one pass over a string was already 2-3x the floor. A `Uint8Array` index
 * loop is several times cheaper, and only the cells that become strings (node descriptions,
 * names, warnings) are decoded.
 *
 * Decoding is WHATWG UTF-8 with U+FFFD for invalid sequences, what `Buffer#toString('utf8')`
 * does, so a line decoded from bytes equals the same line of the decoded text. Pure: no I/O.
 */

/** What the byte-capable parsers accept: decoded text, or the raw bytes of the output. */
export type TextOrBytes = string | Uint8Array;

// ignoreBOM: a U+FEFF inside a line is text (decoding a whole file keeps it there too); only
// the one at the very start of an input is dropped, by the line splitters.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** UTF-8 text of `bytes[start, end)`. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 8) {
    // Short ASCII cells (`N/A`, `1/17/1`) without a native call and a subarray.
    let s = '';
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) return decoder.decode(bytes.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * A string input as UTF-8, so strings and bytes go through one parser. (An unpaired surrogate,
 * which no decoded tool output can contain, becomes U+FFFD.)
 */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Encode `text` into `scratch` (grown when too small); returns the buffer and byte length. The
 * byte after the text is a `\n`, as after a line read in place (row scanners stop on it).
 */
export function encodeInto(text: string, scratch: Uint8Array): { bytes: Uint8Array; length: number } {
  let bytes = scratch;
  if (bytes.length <= text.length * 3) bytes = new Uint8Array(text.length * 3 + 64);
  const length = encoder.encodeInto(text, bytes).written;
  bytes[length] = 10;
  return { bytes, length };
}

/** True when `bytes` starts, at `at`, with a UTF-8 byte order mark (EF BB BF). */
export function hasBom(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;
}

/** True when `bytes[at...]` starts with the ASCII `prefix`. */
export function startsWithAscii(bytes: Uint8Array, at: number, prefix: string): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[at + k] !== prefix.charCodeAt(k)) return false;
  return true;
}

/** Value of one hex digit byte, -1 when it is not one. */
export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** Shared bigints for small values: most error counters are 0..a few hundred. */
export const SMALL_BIGINTS: bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/** The halves {@link decimalHalves} found. */
export const halves = { hi: 0, lo: 0 };
const TWO32 = 4_294_967_296;

/**
 * Decimal digits `bytes[start, end)` (up to 20 of them) into {@link halves}; false when the
 * span is empty, holds a non-digit or exceeds 2^64 - 1. Five digits at a time into 32-bit
 * halves (lo * 1e5 < 2^49 stays exact), as `CounterTableBuilder.setDecimal` does for strings.
 */
export function decimalHalves(bytes: Uint8Array, start: number, end: number): boolean {
  if (end <= start) return false;
  let hi = 0;
  let lo = 0;
  for (let i = start; i < end; ) {
    const stop = Math.min(end, i + 5);
    let chunk = 0;
    let mul = 1;
    for (; i < stop; i++) {
      const d = bytes[i]! - 48;
      if (d < 0 || d > 9) return false;
      chunk = chunk * 10 + d;
      mul *= 10;
    }
    const l = lo * mul + chunk;
    const carry = Math.floor(l / TWO32);
    lo = l - carry * TWO32;
    hi = hi * mul + carry;
    if (hi >= TWO32) return false;
  }
  halves.hi = hi;
  halves.lo = lo;
  return true;
}

/**
 * Integer cell `bytes[start, end)` for a plain decimal of 1..15 digits (nearly every LID, port
 * number and enum cell); -1 otherwise (the caller then decodes the cell and parses the text).
 */
export function plainInt(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const d = bytes[i]! - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Integer cell `bytes[start, end)` written `0x` + 1..13 hex digits (the firmware sections write
 * every number so: `0x0000001f,0x000007dc,0x00000400`); -1 otherwise.
 */
export function plainHex(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 3 || end - start > 15 || bytes[start] !== 48 || (bytes[start + 1]! | 32) !== 120) return -1;
  let v = 0;
  for (let i = start + 2; i < end; i++) {
    const d = hexValue(bytes[i]!);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** True when `bytes[start, end)` is printable ASCII (what {@link AsciiInterner} takes). */
export function printableAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return true;
}

/**
 * Strings of short printable-ASCII cells, made once per distinct text: a 10k-GPU .net_dump
 * repeats `ACT`, `LINK UP`, `RS_FEC_544_514` and `"Quantum-2 Mellanox Technologies"` on 30k
 * rows. A hit costs a hash and a compare of the bytes, no decode and no allocation; each string
 * is fresh, so none keeps a read chunk alive. Only for bytes 0x20-0x7e (the caller checks).
 */
export class AsciiInterner {
  private mask = (1 << 12) - 1;
  private slots: (string | undefined)[] = new Array<string | undefined>(1 << 12);
  /** Each slot's hash, so growing does not hash the strings again. */
  private hashes = new Int32Array(1 << 12);
  private size = 0;

  get(bytes: Uint8Array, start: number, end: number): string {
    let h = 0x811c9dc5 ^ (end - start);
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i];
      if (s === undefined) {
        const text = decodeUtf8(bytes, start, end);
        this.slots[i] = text;
        this.hashes[i] = h;
        if (++this.size * 2 > mask) this.grow();
        return text;
      }
      if (this.hashes[i] === h && sameAscii(s, bytes, start, end)) return s;
    }
  }

  private grow(): void {
    const { slots, hashes } = this;
    const n = slots.length * 2;
    const mask = (this.mask = n - 1);
    this.slots = new Array<string | undefined>(n);
    this.hashes = new Int32Array(n);
    for (let j = 0; j < slots.length; j++) {
      const s = slots[j];
      if (s === undefined) continue;
      let i = hashes[j]! & mask;
      while (this.slots[i] !== undefined) i = (i + 1) & mask;
      this.slots[i] = s;
      this.hashes[i] = hashes[j]!;
    }
  }
}

function sameAscii(s: string, bytes: Uint8Array, start: number, end: number): boolean {
  if (s.length !== end - start) return false;
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) !== bytes[start + k]) return false;
  return true;
}
