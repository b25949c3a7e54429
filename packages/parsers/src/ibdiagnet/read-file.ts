/**
 * The only I/O of the ibdiagnet parsers: stream a file into a line parser. Reads 1 MB UTF-8
 * chunks and splits them itself, calling `feed` synchronously — cheaper than an async
 * iterator step per line. `readFileLines` is the `node:readline` alternative for callers that
 * want an `AsyncIterable<string>`.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ParseResult } from '@ibwatch/fabric';
import { ChunkLineSplitter } from './line-source.ts';
import type { LineParser } from './line-source.ts';

const CHUNK = 1 << 20;

/** Stream `path` line by line (LF or CRLF) into `parser` and finish it. */
export async function parseFile<T>(path: string, parser: LineParser<T>): Promise<ParseResult<T>> {
  const splitter = new ChunkLineSplitter((line) => parser.feed(line), parser.takeLines?.bind(parser));
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK })) {
    splitter.push(chunk as string);
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
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}
