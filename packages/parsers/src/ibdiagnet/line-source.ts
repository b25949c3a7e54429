/**
 * Line plumbing for the ibdiagnet2 parsers. Every file parser is a line-at-a-time state machine
 * (`feed(line)` / `finish()`), so the same code serves a string already in memory and a 50 MB
 * db_csv streamed from disk. Pure: no I/O here (the file reader is `read-file.ts`).
 */
import type { ParseResult } from '@ibwatch/fabric';
import { splitLines, stripCr } from '../lines.ts';

/** A line-at-a-time parser. `feed` gets lines without their terminator; `finish` closes it. */
export interface LineParser<T> {
  feed(line: string): void;
  finish(): ParseResult<T>;
  /**
   * Optional fast path for chunked input: the parser may consume whole lines of `text` from
   * `from` on itself, reading them in place instead of receiving each as a new string (db_csv
   * rows), and returns where the next line it wants through `feed` starts (`from` when none).
   * Only lines ending with `\n` inside `text` may be consumed.
   */
  takeLines?(text: string, from: number): number;
}

/** What the sync entry points accept: the whole text, or any iterable of lines. */
export type LineSource = string | Iterable<string>;

/** Feed a string or an iterable of lines (LF or CRLF) to `parser` and finish it. */
export function runLineParser<T>(parser: LineParser<T>, input: LineSource): ParseResult<T> {
  if (typeof input === 'string') {
    for (const line of splitLines(input)) parser.feed(line);
  } else {
    for (const line of input) parser.feed(stripCr(line));
  }
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
 * Incremental splitter for chunked text (a file read in 1 MB pieces): `push(chunk)` per chunk,
 * `end()` once; `onLine` receives each line without its LF/CRLF. Cheaper than an async
 * iterator per line, which matters for a 10k-GPU db_csv of several hundred thousand lines.
 */
export class ChunkLineSplitter {
  private rest = '';
  private first = true;
  /** `skip` is a parser's {@link LineParser.takeLines}: lines it consumes are never sliced. */
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly skip?: (text: string, from: number) => number,
  ) {}

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
    const skip = this.skip;
    let start = skip === undefined ? from : skip(text, from);
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.onLine(text.slice(start, end));
      start = skip === undefined ? nl + 1 : skip(text, nl + 1);
      nl = text.indexOf('\n', start);
    }
    return start === text.length ? '' : text.slice(start);
  }

  end(): void {
    if (this.rest.length > 0) this.onLine(stripCr(this.rest));
    this.rest = '';
  }
}
