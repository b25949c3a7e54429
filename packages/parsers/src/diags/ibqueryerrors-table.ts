/**
 * `ibqueryerrors` output straight into a {@link CounterTable}: what the collector does with
 * every sweep. Same result as `ibqePortCounters(parseIbqueryerrors(text).value.ports, portToNode)`
 * (same lines accepted, GUIDs, node resolution, warnings and `ParseError`s — both read lines
 * through ibqueryerrors-grammar.ts) without its cost: a 10k-GPU `--counters` output is ~61k
 * port lines x 8 items, and as records that is 61k objects, 61k dictionaries and ~500k bigints
 * per sweep, built only to be compared with the previous sweep and dropped. Here each value
 * goes from the line's digits into two `Uint32Array` cells (`setNumber`/`setHalves`): no
 * port object, no substring, no bigint.
 *
 * Input is the tool's stdout as bytes (a string is encoded to UTF-8 first, so both run the same
 * code). Port lines and `Data Counters for` headers in the tool's exact form are read from the
 * bytes in place: from a string, at 2.5-5 ns per `charCodeAt`, this parser measured 5.8-8x the
 * floor (Node reading the 21 MB file and splitting it into lines). Every other line is decoded
 * and read as text, exactly as the record parser reads it.
 *
 * Two things a table cannot hold, neither of which the tool prints (it prints `%" PRIu64`):
 * a value beyond 2^64 - 1 is counted as an item not understood (the line's warning says so),
 * and 2^64 - 1 itself reads back as absent (the table's "absent" is all ones). A port number
 * beyond 65535 skips its line with a warning (the tool's port numbers are 8-bit).
 */
import type { CounterTable, Guid, NodeType, ParseResult } from '@ibwatch/fabric';
import { CounterTableBuilder } from '@ibwatch/fabric';
import { decodeUtf8, encodeUtf8, hasBom, hexValue, startsWithAscii, type TextOrBytes } from '../common/bytes.ts';
import { isBlank } from '../common/lines.ts';
import { GuidTable } from '../common/guids.ts';
import { LineContext } from '../common/line-context.ts';
import {
  DATA_HDR,
  ERR_HDR,
  type IbqeSummary,
  LINK_INFO_RE,
  PORT_RE,
  portLineHead,
  regexItems,
  scanItems,
  scannedItem,
  scanPortHead,
  summaryLine,
} from './ibqueryerrors-grammar.ts';
import { QuickPortLine } from './ibqueryerrors-quick.ts';
import { parseLinkLine } from './link-line.ts';

export interface IbqueryerrorsTableOptions {
  /** File name for warnings and `ParseError` messages. */
  file?: string;
  /**
   * Port GUID -> node GUID, for the CA port lines of error mode, whose header names no node
   * (`Errors for "dgx-0009 mlx5_0"` / `GUID 0xb83fd20300002091 port 1: ...`), e.g. from
   * ibnetdiscover. Ports it cannot place are left out and counted in `unresolved`.
   */
  portToNode?: ReadonlyMap<Guid, Guid>;
  /**
   * GUID strings to reuse: pass one table to every sweep and each GUID is read into the same
   * string every time (made and hashed once, not per sweep), which is also what the next sweep's
   * rows are matched against (by identity, see `matchRows`). A new table per call by default.
   */
  guids?: GuidTable;
}

export interface IbqueryerrorsTable {
  /** `errors` (default, `--data`, `-r`, ...) or `counters` (`--counters`); `unknown` if no header. */
  mode: 'errors' | 'counters' | 'unknown';
  /** One row per port line (not `port ALL`, not unresolved), in output order. */
  table: CounterTable;
  summary?: IbqeSummary;
  /** Port lines whose node GUID neither the header nor `portToNode` gives. */
  unresolved: number;
}

const MAX_PORT = 0xffff;
const MAX_U64 = (1n << 64n) - 1n;

/**
 * Parse ibqueryerrors output (any mode) into a counter table; see the module comment. Pass the
 * stdout as the `Buffer` it was read into: decoding it first only costs time.
 */
export function ibqueryerrorsTable(
  input: TextOrBytes,
  options: IbqueryerrorsTableOptions = {},
): ParseResult<IbqueryerrorsTable> {
  return new TableReader(options).run(typeof input === 'string' ? encodeUtf8(input) : input);
}

/**
 * Lines of `t` that start with a space or a tab: every port line does (a line cut by a lone
 * `\r` is not counted, and the table then grows as before). One native newline search per line.
 */
function indentedLines(t: Uint8Array): number {
  let n = 0;
  for (let s = 0; s < t.length; ) {
    const c = t[s];
    if (c === 32 || c === 9) n++;
    const nl = t.indexOf(10, s);
    if (nl === -1) break;
    s = nl + 1;
  }
  return n;
}

/** The state machine of the record parser (ibqueryerrors.ts), writing rows instead of records. */
export class TableReader {
  private readonly ctx: LineContext;
  private readonly portToNode: ReadonlyMap<Guid, Guid>;
  private readonly guids: GuidTable;
  private readonly quick: QuickPortLine;
  private b = new CounterTableBuilder(16);
  /** Item names of the last port line by position, and their columns (see `scanItem`). */
  private readonly itemNames: string[] = [];
  private readonly colNames: string[] = [];
  private readonly cols: number[] = [];
  private mode: IbqueryerrorsTable['mode'] = 'unknown';
  private node: { guid?: Guid; type?: NodeType } | undefined;
  /** A port line was the last line that counts: a `Link info:` line may follow it. */
  private pending = false;
  private portLines = 0;
  private unresolved = 0;
  private summary: IbqeSummary | undefined;
  /** The first line was read (a BOM is looked for there only). */
  private started = false;

  get warningCount(): number {
    return this.ctx.warnings.length;
  }

  constructor(options: IbqueryerrorsTableOptions) {
    this.ctx = new LineContext('ibqueryerrors', options.file);
    this.portToNode = options.portToNode ?? new Map<Guid, Guid>();
    this.guids = options.guids ?? new GuidTable();
    this.quick = new QuickPortLine(this.guids);
  }

  run(bytes: Uint8Array): ParseResult<IbqueryerrorsTable> {
    // Sized from the input: growing the columns by doubling (and cutting them to size at the
    // end) allocated and copied ~100 MB more per 45k-GPU `--counters` sweep (293k rows), and each
    // sweep's garbage costs a full GC. Port lines are the indented ones; their count is trusted
    // up to one row per 128 bytes (a port line is 34 bytes at the least, a `--counters` one
    // ~340, an error-mode one 100-200), so that indented junk cannot make the table huge.
    this.b = new CounterTableBuilder(Math.min(indentedLines(bytes), Math.max(4096, bytes.length >> 7)));
    this.lines(bytes, 0, bytes.length);
    return this.finish();
  }

  /**
   * Sizes the table for a parse fed chunk by chunk: `rows`, when given, is the row count of the
   * last parse of the same output (the next sweep of a fabric has as many ports, and a table of
   * exactly that size is not copied to size by `build`: ~12 MB of copies and new memory less per
   * 10k-GPU sweep); else the output's expected size in `bytes` (the last sweep's; 0: unknown,
   * the table grows) gives one row per 256 bytes (a `--counters` port line is ~340, an
   * error-mode one 100-200). At most 2^19 rows (49,151 LIDs: no subnet has half a million ports).
   */
  begin(bytes: number, rows = 0): void {
    const guess = rows > 0 ? rows : Math.max(4096, bytes >> 8);
    this.b = new CounterTableBuilder(Math.min(1 << 19, guess));
  }

  finish(): ParseResult<IbqueryerrorsTable> {
    // A GUID table kept for the next sweep must not keep this output alive (100 MB at 45k GPUs).
    this.guids.forgetInput();
    const ctx = this.ctx;
    ctx.requireContent();
    if (!this.summary && this.portLines === 0)
      ctx.fail('neither port lines nor a "## Summary" footer', undefined, null);
    if (!this.summary) ctx.warn('no "## Summary" footer: output may be truncated', null);
    const value: IbqueryerrorsTable = { mode: this.mode, table: this.b.build(), unresolved: this.unresolved };
    if (this.summary) value.summary = this.summary;
    return ctx.result(value);
  }

  /**
   * The lines of `bytes[from, n)` as `splitLines` cuts the decoded text (a leading BOM dropped; `\n`,
   * `\r\n` and a lone `\r` end a line). A port line or node header in the tool's exact form is
   * read in place (ASCII only, so never one holding a `\r`); any other line is decoded and fed.
   */
  lines(bytes: Uint8Array, from: number, n: number): void {
    let pos = from;
    if (!this.started) {
      this.started = true;
      if (hasBom(bytes, pos)) pos += 3;
    }
    const q = this.quick;
    while (pos < n) {
      let nl = bytes.indexOf(10, pos);
      if (nl === -1 || nl >= n) nl = n;
      const end = nl > pos && bytes[nl - 1] === 13 ? nl - 1 : nl;
      if (this.node !== undefined && q.read(bytes, pos, end)) {
        this.ctx.lineNo++;
        this.ctx.nonBlank++;
        const row = this.rowFor(q.guid, q.port === -1 ? 'ALL' : q.port, '');
        if (row >= 0) q.commit(this.b, row, bytes);
      } else if (!this.header(bytes, pos, end)) {
        const line = decodeUtf8(bytes, pos, end);
        if (line.indexOf('\r') === -1) this.feed(line);
        else for (const piece of line.split('\r')) this.feed(piece);
      }
      pos = nl + 1;
    }
  }

  /**
   * A node header read in place, as DATA_HDR and ERR_HDR read it: `Data Counters for
   * 0xfc6a1c0300000000 "leaf-0000"` (10k of them at 10k GPUs), `Errors for 0xfc6a1c0300000000
   * "leaf-0000"` (a switch) and `Errors for "gpu-node-1 mlx5_0"` (an HCA: its ports name it).
   * Only a 16-digit GUID and a printable-ASCII name; false leaves any other form to `feed`.
   */
  private header(t: Uint8Array, s: number, e: number): boolean {
    let q: number;
    const errors = t[s] === 69 /* E */;
    if (errors && startsWithAscii(t, s, 'Errors for ')) q = s + 11;
    else if (t[s] === 68 /* D */ && startsWithAscii(t, s, 'Data Counters for ')) q = s + 18;
    else return false;
    // At least `""` after the prefix (and no read past the line).
    if (e < q + 2) return false;
    let guid: Guid | undefined;
    if (!errors || t[q] !== 34) {
      // Both regexes want a lower-case `0x`. The all-zero GUID is not in the table: `feed` reads it.
      if (e < q + 21 || t[q] !== 48 || t[q + 1] !== 120 || t[q + 18] !== 32) return false;
      for (let i = q + 2; i < q + 18; i++) if (hexValue(t[i]!) < 0) return false;
      guid = this.guids.getBytes(t, q, q + 18);
      if (guid === undefined) return false;
      q += 19;
    }
    if (e - 1 <= q || t[q] !== 34 || t[e - 1] !== 34) return false;
    for (let i = q + 1; i < e - 1; i++) if (t[i]! < 32 || t[i]! > 126) return false;
    this.ctx.lineNo++;
    this.ctx.nonBlank++;
    this.pending = false;
    if (this.mode === 'unknown') this.mode = errors ? 'errors' : 'counters';
    this.node = !errors ? { guid } : guid === undefined ? { type: 'ca' } : { type: 'switch', guid };
    return true;
  }

  /** The row a port line's values go to; -1 for `port ALL` and ports of no known node. */
  private rowFor(guid: Guid, port: number | 'ALL', line: string): number {
    this.portLines++;
    this.pending = true;
    if (port === 'ALL') return -1;
    const nodeGuid = this.node!.guid ?? this.portToNode.get(guid);
    if (nodeGuid === undefined) {
      this.unresolved++;
      return -1;
    }
    if (port > MAX_PORT) {
      this.ctx.unknown(line, 'port number beyond 65535; skipped');
      return -1;
    }
    return this.b.addRow(nodeGuid, port);
  }

  /** The hand-read port line (see the record parser's `fastPortLine`). */
  private fastPortLine(line: string): boolean {
    if (!this.node) return false;
    const colon = scanPortHead(line);
    if (colon === -1) return false;
    const { guidStart, guidEnd, port } = portLineHead;
    this.pending = false;
    const guidAt = guidEnd - guidStart === 18 ? this.guids.getAt(line, guidStart, guidEnd) : undefined;
    const row = this.rowFor(guidAt ?? this.ctx.guid(line.slice(guidStart, guidEnd), line), port, line);
    scanItems(this.ctx, line, colon, this.itemNames, (k) => row < 0 || this.store(row, line, k));
    return true;
  }

  /** The value of {@link scannedItem} into its column; false when it does not fit 64 bits. */
  private store(row: number, line: string, k: number): boolean {
    const { name, digits, digitsEnd, value } = scannedItem;
    if (this.colNames[k] !== name) {
      this.colNames[k] = name;
      this.cols[k] = this.b.column(name);
    }
    if (digitsEnd - digits <= 15) {
      this.b.setNumber(this.cols[k]!, row, value);
      return true;
    }
    return this.b.setDecimal(this.cols[k]!, row, line, digits, digitsEnd);
  }

  /** A port line only PORT_RE takes (tab indent, a port number of 16+ digits...). */
  private regexPortLine(line: string, m: RegExpExecArray): void {
    this.pending = false;
    if (!this.node) {
      // A pasted excerpt without its header, as the record parser reads it.
      this.ctx.warn('no "Errors for" header: the node is known only by the GUID on its lines');
      this.node = {};
    }
    const counters = regexItems(m[3], line, this.ctx);
    const row = this.rowFor(
      this.guids.get(m[1]) ?? this.ctx.guid(m[1], line),
      m[2] === 'ALL' ? 'ALL' : Number(m[2]),
      line,
    );
    if (row < 0) return;
    let tooBig = 0;
    for (const name in counters) {
      if (counters[name]! > MAX_U64) tooBig++;
      else this.b.setBigint(this.b.column(name), row, counters[name]!);
    }
    if (tooBig > 0) this.ctx.unknown(line, `${tooBig} counter item(s) not understood (output cut?)`);
  }

  private feed(raw: string): void {
    const ctx = this.ctx;
    const line = ctx.next(raw);
    if (isBlank(line)) return;
    if (line.charCodeAt(0) === 32 && this.fastPortLine(line)) return;
    let m: RegExpExecArray | null;
    if ((m = PORT_RE.exec(line))) {
      this.regexPortLine(line, m);
    } else if (LINK_INFO_RE.test(line)) {
      // `-r` only: the link is not a counter; it is read to warn as the record parser does.
      if (!this.pending || !parseLinkLine(line.replace(LINK_INFO_RE, '')))
        ctx.unknown(line, 'Link info line not understood');
    } else if ((m = ERR_HDR.exec(line))) {
      this.pending = false;
      if (this.mode === 'unknown') this.mode = 'errors';
      this.node = { type: m[1] ? 'switch' : 'ca' };
      if (m[1]) this.node.guid = ctx.guid(m[1], line);
    } else if ((m = DATA_HDR.exec(line))) {
      this.pending = false;
      if (this.mode === 'unknown') this.mode = 'counters';
      this.node = { guid: ctx.guid(m[1], line) };
    } else if (line.startsWith('##')) {
      this.pending = false;
      this.summary = summaryLine(line, this.summary, ctx);
    } else {
      ctx.unknown(line);
    }
  }
}
