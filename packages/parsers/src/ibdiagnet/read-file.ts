/**
 * The only I/O of the ibdiagnet parsers: stream a file into a line parser. Reads 1 MB chunks of
 * BYTES into one re-used buffer and splits them itself ({@link ByteLineSplitter}), calling the
 * parser synchronously — cheaper than an async iterator step per line, and no UTF-8 decode of
 * the lines the parser reads in place (db_csv rows; see bytes.ts). `readFileLines` is the
 * `node:readline` alternative for callers that want an `AsyncIterable<string>`.
 *
 * The reads are synchronous. An awaited fs call runs on a libuv pool thread, and while the PM
 * worker (pm-thread.ts) keeps the other core of a 2-core machine busy, that thread first waits
 * for a core: the ~20 awaits of a 10k-GPU directory left the main thread idle ~50 ms per read.
 * The parse holds the thread far longer than the reads of these local files do.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ParseResult } from '@ibwatch/fabric';
import { ByteLineSplitter } from './line-source.ts';
import type { LineParser } from './line-source.ts';

const CHUNK = 1 << 20;

/**
 * Stream `path` line by line (LF or CRLF; a lone `\r` stays inside its line, as before the
 * byte reader) into `parser` and finish it.
 */
export async function parseFile<T>(path: string, parser: LineParser<T>): Promise<ParseResult<T>> {
  const splitter = new ByteLineSplitter(parser, false);
  const fd = openSync(path, 'r');
  try {
    // One buffer for the whole file: the splitter copies the only bytes it keeps (a cut line).
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const bytesRead = readSync(fd, buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      splitter.push(buf.subarray(0, bytesRead));
    }
  } finally {
    closeSync(fd);
  }
  splitter.end();
  return parser.finish();
}

/** Lines of a file via `node:readline` (CRLF handled by `crlfDelay: Infinity`). */
export function readFileLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
}

/** The first `bytes` of a file as text (for its `# Running timestamp` header). */
export async function readHead(path: string, bytes = 4096): Promise<string> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const bytesRead = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
