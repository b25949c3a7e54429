/**
 * The one line runner of every parser (ibdiagnet2 files, infiniband-diags, OpenSM, node-name
 * map). Every parser is a line-at-a-time state machine (`feed(line)` / `finish()`), so the same
 * code serves a string already in memory, an array of lines and a 60 MB db_csv streamed in
 * chunks. Bytes are split by {@link ByteLineSplitter}: a parser with a byte fast path
 * (`takeLines`: db_csv rows) reads its lines in place, and only the lines it leaves are decoded
 * for `feed` — see bytes.ts for why. Pure: the caller reads the files (apps/collector/src/input/).
 */
import type { ParseResult } from '@ibwatch/fabric';
import { decodeUtf8, encodeUtf8, hasBom } from './bytes.ts';
import { splitLines, stripCr } from './lines.ts';
import { ParseError } from './parse-error.ts';

/** A line-at-a-time parser. `feed` gets lines without their terminator; `finish` closes it. */
export interface LineParser<T> {
  feed(line: string): void;
  finish(): ParseResult<T>;
  /**
   * Optional byte fast path: the parser may consume whole lines of `bytes` from `from` on
   * itself, reading them in place instead of receiving each as a decoded string (db_csv rows),
   * and returns where the next line it wants through `feed` starts (`from` when none). Only
   * lines ending with `\n` inside `bytes` may be consumed; a `\r` before that `\n` is not part
   * of the line. `bytes` is only valid during the call (the reader re-uses its buffer).
   */
  takeLines?(bytes: Uint8Array, from: number): number;
  /**
   * A line longer than {@link MAX_LINE_BYTES} was met: the splitter does not keep it (a file of
   * NULs without a newline was buffered whole, and joined chunk after chunk, quadratically: 54 s
   * and 1.7 GB for 400 MB). The parser gets the line's first {@link SKIPPED_HEAD_BYTES} bytes,
   * decoded, counts the line and decides: a warning, or a `ParseError` (binary data). The rest
   * of the line is passed over unread. A parser without it makes the splitter throw.
   */
  skipLine?(head: string): void;
}

/**
 * The longest line the splitter hands on: 1 MiB. No line of a tool output this package reads
 * comes near it (a db_csv PM_INFO row of ~50 counters is ~600 bytes; an IB NodeDescription is
 * 64 bytes); a longer one is garbage, and keeping it would only cost memory.
 */
export const MAX_LINE_BYTES = 1 << 20;
/** How much of a skipped line its parser sees (for the warning and the binary check). */
export const SKIPPED_HEAD_BYTES = 256;

/** What the sync entry points accept: the whole text, its bytes, or any iterable of lines. */
export type LineSource = string | Uint8Array | Iterable<string>;

/**
 * Feed a string, its bytes or an iterable of lines (LF or CRLF) to `parser` and finish it.
 * Text and bytes give the same lines as {@link splitLines}; a parser with a byte fast path gets
 * a string as UTF-8, so both forms run the same code.
 */
export function runLineParser<T>(parser: LineParser<T>, input: LineSource): ParseResult<T> {
  if (input instanceof Uint8Array || (typeof input === 'string' && parser.takeLines !== undefined)) {
    const splitter = new ByteLineSplitter(parser, true);
    splitter.push(typeof input === 'string' ? encodeUtf8(input) : input);
    splitter.end();
  } else if (typeof input === 'string') {
    for (const line of splitLines(input)) parser.feed(line);
  } else {
    for (const line of input) parser.feed(stripCr(line));
  }
  return parser.finish();
}

/**
 * Feed a file's bytes, chunk after chunk, to `parser` and finish it: what a file reader hands
 * over (a chunk may be re-used once the next is asked for). Lines end at `\n` (CRLF too); a lone
 * `\r` stays inside its line, as in {@link ChunkLineSplitter}; lines over `MAX_LINE_BYTES` go
 * to the parser's `skipLine`.
 */
export function runLineParserChunks<T>(parser: LineParser<T>, chunks: Iterable<Uint8Array>): ParseResult<T> {
  const splitter = new ByteLineSplitter(parser, false);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return parser.finish();
}

/** Same as {@link runLineParser} for an async iterable of lines (e.g. `node:readline`). */
export async function runLineParserAsync<T>(
  parser: LineParser<T>,
  input: AsyncIterable<string> | Iterable<string>,
): Promise<ParseResult<T>> {
  for await (const line of input) parser.feed(stripCr(line));
  return parser.finish();
}

/**
 * Incremental splitter for chunked text (the parser benchmarks' floor reads files this way): `push(chunk)` per chunk,
 * `end()` once; `onLine` receives each line without its LF/CRLF. Cheaper than an async
 * iterator per line, which matters for a 10k-GPU db_csv of several hundred thousand lines.
 */
export class ChunkLineSplitter {
  private rest = '';
  private first = true;
  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let text = chunk;
    let start = 0;
    // A file saved by a Windows editor starts with a UTF-8 BOM: it is not part of line 1.
    if (this.first && chunk.length > 0) {
      this.first = false;
      if (chunk.charCodeAt(0) === 0xfeff) {
        text = chunk = chunk.slice(1);
      }
    }
    if (this.rest.length > 0) {
      // Only the line that spans the two chunks is joined: `rest + chunk` would make V8 copy
      // the whole 1 MB chunk into a new flat string at the first indexOf.
      const nl = chunk.indexOf('\n');
      if (nl === -1) {
        this.rest += chunk;
        return;
      }
      text = this.rest + chunk.slice(0, nl + 1);
      this.rest = '';
      this.lines(text, 0);
      text = chunk;
      start = nl + 1;
    }
    this.rest = this.lines(text, start);
  }

  /** Emit the complete lines of `text` from `start`; returns the unterminated tail. */
  private lines(text: string, from: number): string {
    let start = from;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.onLine(text.slice(start, end));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    return start === text.length ? '' : text.slice(start);
  }

  end(): void {
    if (this.rest.length > 0) this.onLine(stripCr(this.rest));
    this.rest = '';
  }
}

/**
 * Incremental splitter for chunked bytes (a file read in 1 MB pieces): `push(chunk)` per chunk,
 * `end()` once. Lines end at `\n` (a `\r` before it dropped); a UTF-8 BOM at the start is not
 * part of line 1. Complete lines go to the parser's `takeLines` first; each line it leaves is
 * decoded and fed. A chunk may be re-used by the caller after `push`: only the unterminated
 * tail is kept, as a copy.
 *
 * Linear in the input, whatever its lines: the pieces of a line that spans chunks are kept in
 * a list and joined once, when its end comes; a line over `maxLineBytes` is not kept at all
 * (`skipLine`, then its bytes are passed over up to the next `\n`).
 *
 * `splitLoneCr`: a `\r` not followed by `\n` also ends a line, as {@link splitLines} does for
 * whole texts (the file reader, like {@link ChunkLineSplitter}, keeps it inside the line). Lines
 * of a chunk holding such a `\r` are all decoded and fed.
 */
export class ByteLineSplitter {
  /** Copies of the pieces of the line being cut by chunk boundaries, and their total length. */
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  /** Inside a line too long to keep: bytes are dropped up to its `\n`. */
  private skipping = false;
  private first = true;

  constructor(
    private readonly parser: Pick<LineParser<unknown>, 'feed' | 'takeLines' | 'skipLine'>,
    private readonly splitLoneCr: boolean,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    let from = 0;
    if (this.skipping) {
      const nl = chunk.indexOf(10);
      if (nl === -1) return;
      this.skipping = false;
      from = nl + 1;
    } else if (this.partBytes > 0) {
      // Only the line that spans the chunks is joined, not the whole chunk.
      const nl = chunk.indexOf(10);
      const piece = nl === -1 ? chunk : chunk.subarray(0, nl + 1);
      // Bytes of the line so far, its `\n` not counted.
      if (this.partBytes + piece.length - (nl === -1 ? 0 : 1) > this.maxLineBytes) {
        this.skipKept();
        if (nl === -1) {
          this.skipping = true;
          return;
        }
        from = nl + 1;
      } else if (nl === -1) {
        this.keep(chunk);
        return;
      } else {
        const joined = Buffer.concat([...this.parts, piece], this.partBytes + piece.length);
        this.parts = [];
        this.partBytes = 0;
        this.lines(joined, 0);
        from = nl + 1;
      }
    }
    const tail = this.lines(chunk, from);
    if (tail < chunk.length) {
      if (chunk.length - tail > this.maxLineBytes) {
        this.keep(chunk.subarray(tail, tail + SKIPPED_HEAD_BYTES));
        this.skipKept();
        this.skipping = true;
      } else this.keep(chunk.subarray(tail));
    }
  }

  end(): void {
    const parts = this.parts;
    this.parts = [];
    this.partBytes = 0;
    this.skipping = false;
    if (parts.length === 0) return;
    const rest = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (rest.length === 0) return;
    const from = this.first && hasBom(rest, 0) ? 3 : 0;
    this.first = false;
    if (from === rest.length) return;
    const line = decodeUtf8(rest, from, rest.length);
    this.feedLine(line.endsWith('\r') ? line.slice(0, -1) : line, this.splitLoneCr);
  }

  /** Keep a copy of `piece` (`Buffer#slice` would be a view of the buffer the reader re-uses). */
  private keep(piece: Uint8Array): void {
    this.parts.push(Buffer.from(piece));
    this.partBytes += piece.length;
  }

  /** The kept line is too long: its parser gets its head, the pieces are dropped. */
  private skipKept(): void {
    const head = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    this.partBytes = 0;
    this.skip(head, 0);
  }

  private skip(bytes: Uint8Array, start: number): void {
    if (this.first) {
      this.first = false;
      if (hasBom(bytes, start)) start += 3;
    }
    const head = decodeUtf8(bytes, start, Math.min(bytes.length, start + SKIPPED_HEAD_BYTES));
    if (this.parser.skipLine === undefined) {
      throw new ParseError({ format: 'text', text: head, reason: `line longer than ${this.maxLineBytes} bytes` });
    }
    this.parser.skipLine(head);
  }

  /** Complete lines of `bytes` from `pos`; returns where the unterminated tail starts. */
  private lines(bytes: Uint8Array, pos: number): number {
    // The BOM is decided once 3 bytes or a line end are there (a chunk may be 1 byte).
    if (this.first && (bytes.length - pos >= 3 || bytes.indexOf(10, pos) !== -1)) {
      this.first = false;
      if (hasBom(bytes, pos)) pos += 3;
    }
    const n = bytes.length;
    const loneCr = this.splitLoneCr && hasLoneCr(bytes, pos);
    const take = loneCr ? undefined : this.parser.takeLines?.bind(this.parser);
    while (pos < n) {
      if (take !== undefined) {
        pos = take(bytes, pos);
        if (pos >= n) break;
      }
      const nl = bytes.indexOf(10, pos);
      if (nl === -1) return pos;
      const end = nl > pos && bytes[nl - 1] === 13 ? nl - 1 : nl;
      if (end - pos > this.maxLineBytes) this.skip(bytes, pos);
      else this.feedLine(decodeUtf8(bytes, pos, end), loneCr);
      pos = nl + 1;
    }
    return n;
  }

  private feedLine(line: string, splitCr: boolean): void {
    if (splitCr && line.indexOf('\r') !== -1) for (const piece of line.split('\r')) this.parser.feed(piece);
    else this.parser.feed(line);
  }
}

/** A `\r` in `bytes[from...]` that is not followed by `\n`. */
function hasLoneCr(bytes: Uint8Array, from: number): boolean {
  for (let i = bytes.indexOf(13, from); i !== -1; i = bytes.indexOf(13, i + 1)) {
    if (bytes[i + 1] !== 10) return true;
  }
  return false;
}
