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
  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const text = this.rest.length > 0 ? this.rest + chunk : chunk;
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.onLine(text.slice(start, end));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    this.rest = start === 0 ? text : text.slice(start);
  }

  end(): void {
    if (this.rest.length > 0) this.onLine(stripCr(this.rest));
    this.rest = '';
  }
}
