/**
 * The only I/O of the ibdiagnet parsers: stream a file into a line parser. Reads 1 MB chunks of
 * BYTES into one re-used buffer and splits them itself ({@link ByteLineSplitter}), calling the
 * parser synchronously — cheaper than an async iterator step per line, and no UTF-8 decode of
 * the lines the parser reads in place (db_csv rows; see bytes.ts). `readFileLines` is the
 * `node:readline` alternative for callers that want an `AsyncIterable<string>`.
 *
 * The reads are synchronous. An awaited fs call runs on a libuv pool thread, which on a busy
 * 2-core machine first waits for a core: the ~20 awaits of a 10k-GPU directory left the main
 * thread idle ~50 ms per read. The parse holds the thread far longer than these reads do.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { ParseResult } from '@ibwatch/fabric';
import { openInputFile, readInputChunk, readInputHead } from '../input-file.ts';
import type { OpenInputOptions } from '../input-file.ts';
import { ByteLineSplitter } from './line-source.ts';
import type { LineParser } from './line-source.ts';

const CHUNK = 1 << 20;

/** Options of {@link parseFile}: the file's format name (default: its base name) and size limit. */
export type ParseFileOptions = Partial<OpenInputOptions>;

/**
 * Stream `path` line by line (LF or CRLF; a lone `\r` stays inside its line, as before the
 * byte reader) into `parser` and finish it. Only a regular file within the size limit is read
 * (input-file.ts); lines over `MAX_LINE_BYTES` go to the parser's `skipLine`.
 */
export async function parseFile<T>(
  path: string,
  parser: LineParser<T>,
  options: ParseFileOptions = {},
): Promise<ParseResult<T>> {
  const opts: OpenInputOptions = { ...options, format: options.format ?? basename(path) };
  const splitter = new ByteLineSplitter(parser, false);
  const file = openInputFile(path, opts);
  try {
    // One buffer for the whole file: the splitter copies the only bytes it keeps (a cut line).
    const buf = Buffer.allocUnsafe(CHUNK);
    let total = 0;
    for (;;) {
      const bytesRead = readInputChunk(file, buf, total, opts);
      if (bytesRead === 0) break;
      total += bytesRead;
      splitter.push(buf.subarray(0, bytesRead));
    }
  } finally {
    file.close();
  }
  splitter.end();
  return parser.finish();
}

/** Lines of a file via `node:readline` (CRLF handled by `crlfDelay: Infinity`). */
export function readFileLines(path: string): AsyncIterable<string> {
  const file = openInputFile(path, { format: basename(path) });
  return createInterface({ input: createReadStream(path, { fd: file.fd, encoding: 'utf8' }), crlfDelay: Infinity });
}

/** The first `bytes` of a file as text (for its `# Running timestamp` header). */
export async function readHead(path: string, bytes = 4096): Promise<string> {
  return readInputHead(path, bytes, { format: basename(path) }).toString('utf8');
}
