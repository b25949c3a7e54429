/**
 * The port line of `ibqueryerrors` exactly as the tool prints it, read in place from the
 * output's BYTES (no decode, no substring):
 *
 *    GUID 0xb83fd20300002200 port 1: [PortXmitData == 46728 (182.531KB)] [PortRcvData == 46728 (182.531KB)] ...
 *
 * and nothing else: every character is checked (so such a line cannot hide binary data), and
 * anything unexpected (other spacing, a cut item, a GUID in another form, a `[` inside the
 * human-readable suffix...) makes {@link QuickPortLine.read} return false, leaving the line to
 * the general reader, which decodes it and reads it as the record parser does. ~61k of these
 * lines (21 MB) make a 10k-GPU `--counters` output. Read from a string with `charCodeAt` they
 * cost ~6x the floor (reading the file + splitting it into lines); from bytes each is one pass
 * of a `Uint8Array` index loop. A class, not closures, so V8 optimises its code once.
 */
import type { CounterTableBuilder, Guid } from '@ibwatch/fabric';
import { AsciiInterner, decimalHalves, halves, startsWithAscii } from '../common/bytes.ts';
import type { GuidTable } from '../common/guids.ts';

/** Items a quick port line may hold (the tool prints at most ~30). */
const MAX_ITEMS = 64;
const MAX_PORT = 0xffff;

/**
 * 1 for the bytes the human-readable suffix may hold before its `)`: printable ASCII but `[`
 * (which the general reader would count as an item opened) and `)`. One table load per byte
 * instead of four comparisons; the line's `\r`/`\n` end (and `undefined` past the input) stop it.
 */
const SUFFIX_BYTE = new Uint8Array(256);
for (let c = 32; c <= 126; c++) SUFFIX_BYTE[c] = c === 91 || c === 41 ? 0 : 1;

/** An item name as met in port lines (see `QuickPortLine.first`). */
interface ItemKey {
  name: string;
  /** `Name == `, and its whole little-endian 32-bit words (the tail of 0-3 bytes only in `key`). */
  key: Uint8Array;
  words: Uint32Array;
  /** Column in the current builder, -1 until the first commit. */
  col: number;
  /** The item that followed this one last time. */
  next: ItemKey | undefined;
}

/** `GUID`, ` 0`, ` por`, `t ` as big-endian words (the `x` of `0x` is checked by itself). */
const GUID_ = 0x47554944;
const SPACE_0 = 0x2030;
const SPACE_POR = 0x20706f72;
const RT_SPACE = 0x7420;

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

export class QuickPortLine {
  /** What the last successful `read` found: canonical GUID, port (-1 = `ALL`), item count. */
  guid: Guid = '';
  port = 0;
  items = 0;
  /**
   * The item names met, each with its `Name == ` bytes, its table column and the item that
   * followed it last time. The tool prints items in one fixed order and leaves out those at 0
   * (error mode) or under threshold, so "the item after X" predicts the next key far better than
   * "the k-th item of the last line": one left-out item shifted every later position.
   */
  private first: ItemKey | undefined;
  private readonly byName = new Map<string, ItemKey>();
  private readonly nameTexts = new AsciiInterner();
  /** The key of each staged item. */
  private readonly staged: ItemKey[] = [];
  /** The builder the keys' `col` belong to. */
  private builder: CounterTableBuilder | undefined;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  /** The bytes `view` is over: compared by identity (`t.buffer` is a getter call per line). */
  private viewOf: Uint8Array | undefined;
  /** Staged values: the digits' value (exact up to 15 digits) and where they are. */
  private readonly value = new Float64Array(MAX_ITEMS);
  private readonly start = new Int32Array(MAX_ITEMS);
  private readonly end = new Int32Array(MAX_ITEMS);

  constructor(private readonly guids: GuidTable) {}

  /**
   * Line `t[s, e)` (`t[e]` is its `\r`/`\n`, or past the end): true when it is a port line of
   * the exact form, its items staged.
   */
  read(t: Uint8Array, s: number, e: number): boolean {
    if (t[s] !== 32) return false;
    if (this.viewOf !== t) {
      this.viewOf = t;
      this.view = new DataView(t.buffer, t.byteOffset, t.byteLength);
    }
    const dv = this.view;
    let i = s + 1;
    while (t[i] === 32) i++;
    const gs = i + 5;
    // `GUID 0x` and ` port ` as big-endian words.
    if (gs + 24 > e || dv.getUint32(i) !== GUID_ || dv.getUint16(i + 4) !== SPACE_0 || t[gs + 1] !== 120) return false;
    if (dv.getUint32(gs + 18) !== SPACE_POR || dv.getUint16(gs + 22) !== RT_SPACE) return false;
    // The table answers a switch's 64 lines naming one GUID from its last one, by four compares.
    const guid = this.guids.getBytes(t, gs, gs + 18);
    if (guid === undefined) return false;
    i = gs + 24;
    let port = 0;
    if (startsWithAscii(t, i, 'ALL:')) {
      port = -1;
      i += 4;
    } else {
      const p0 = i;
      let c = t[i]!;
      for (; c >= 48 && c <= 57; c = t[++i]!) port = port * 10 + c - 48;
      if (i === p0 || i - p0 > 5 || port > MAX_PORT || c !== 58 /* : */) return false;
      i++;
    }
    let n = 0;
    let expect = this.first;
    let prev: ItemKey | undefined;
    while (i < e) {
      if (n === MAX_ITEMS || t[i] !== 32 || t[i + 1] !== 91 /* [ */) return false;
      i += 2;
      let k: ItemKey;
      if (expect !== undefined && i + expect.key.length <= e && sameKey(dv, t, i, expect.key, expect.words)) {
        k = expect;
        i += k.key.length;
      } else {
        const ns = i;
        while (isWordChar(t[i]!)) i++;
        if (i === ns || !startsWithAscii(t, i, ' == ')) return false;
        // By the bytes, not decoded: error-mode lines change names on nearly every line.
        const name = this.nameTexts.get(t, ns, i);
        let known = this.byName.get(name);
        if (known === undefined) {
          const key = new Uint8Array(t.subarray(ns, i + 4));
          this.byName.set(name, (known = { name, key, words: littleEndianWords(key), col: -1, next: undefined }));
        }
        k = known;
        if (prev === undefined) this.first = k;
        else prev.next = k;
        i += 4;
      }
      this.staged[n] = k;
      prev = k;
      expect = k.next;
      const ds = i;
      // Up to 9 digits in int32 arithmetic, the rest (data counters) as a double.
      let small = 0;
      let c = t[i]!;
      for (; c >= 48 && c <= 57 && i - ds < 9; c = t[++i]!) small = (small * 10 + c - 48) | 0;
      let v = small;
      for (; c >= 48 && c <= 57; c = t[++i]!) v = v * 10 + c - 48;
      // Up to 19 digits always fit 64 bits; 20 may not (the general reader decides).
      if (i === ds || i - ds > 19) return false;
      this.value[n] = v;
      this.start[n] = ds;
      this.end[n] = i;
      if (c === 32) {
        // The human-readable `(182.531KB)`: printable ASCII up to `)`, inside the line.
        if (t[i + 1] !== 40 /* ( */) return false;
        i += 2;
        while (SUFFIX_BYTE[t[i]!] === 1) i++;
        if (i >= e || t[i] !== 41 /* ) */) return false;
        c = t[++i]!;
      }
      if (c !== 93 /* ] */) return false;
      i++;
      n++;
    }
    if (i !== e) return false;
    this.guid = guid;
    this.port = port;
    this.items = n;
    return true;
  }

  /** Write the staged items of the last `read` of `t` into `row`. */
  commit(b: CounterTableBuilder, row: number, t: Uint8Array): void {
    if (this.builder !== b) {
      for (const key of this.byName.values()) key.col = -1;
      this.builder = b;
    }
    const { staged, value, start, end } = this;
    for (let k = 0; k < this.items; k++) {
      const key = staged[k]!;
      if (key.col === -1) key.col = b.column(key.name);
      const col = key.col;
      // Below 2^32 the halves are known without `setNumber`'s division (~half of all items).
      if (end[k] - start[k] <= 15) {
        const v = value[k]!;
        if (v <= 0xffff_ffff) b.setHalves(col, row, 0, v);
        else b.setNumber(col, row, v);
      } else if (decimalHalves(t, start[k], end[k])) b.setHalves(col, row, halves.hi, halves.lo);
    }
  }
}

/** The whole 32-bit little-endian words of `key` (its last 0-3 bytes are left out). */
function littleEndianWords(key: Uint8Array): Uint32Array {
  const dv = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const words = new Uint32Array(key.length >> 2);
  for (let w = 0; w < words.length; w++) words[w] = dv.getUint32(4 * w, true);
  return words;
}

/**
 * `t[at...]` (viewed by `dv`; `at + key.length` must not pass the line) starts with the bytes of
 * `key`, whose first `words.length * 4` bytes are `words`.
 */
function sameKey(
  dv: DataView<ArrayBufferLike>,
  t: Uint8Array,
  at: number,
  key: Uint8Array,
  words: Uint32Array,
): boolean {
  const nw = words.length;
  for (let w = 0; w < nw; w++) if (dv.getUint32(at + 4 * w, true) !== words[w]) return false;
  for (let k = nw * 4; k < key.length; k++) if (t[at + k] !== key[k]) return false;
  return true;
}
