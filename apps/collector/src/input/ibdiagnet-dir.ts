/**
 * `readIbdiagnetDir(dir)`: an ibdiagnet output directory from disk into one `FabricSnapshot`.
 * @ibwatch/parsers decides what to read and joins it (`readIbdiagnetRun`); this module opens
 * the files, through input-file.ts only: a name that is there but is not a regular file (FIFO,
 * device, directory, symbolic link to nothing) or is over the size limit counts as broken,
 * never as absent.
 *
 * Files are read in 1 MB chunks of BYTES into one re-used buffer and split by the parsers'
 * `ByteLineSplitter`, which calls the parser synchronously: cheaper than an async iterator step
 * per line, and no UTF-8 decode of the lines a parser reads in place (db_csv rows).
 *
 * The reads are synchronous. An awaited fs call runs on a libuv pool thread, which on a busy
 * 2-core machine first waits for a core: the ~20 awaits of a 10k-GPU directory left the main
 * thread idle ~50 ms per read. The parse holds the thread far longer than these reads do.
 */
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FabricSnapshot, ParseResult } from '@ibwatch/fabric';
import { ParseError, readIbdiagnetRun, type IbdiagnetFiles } from '@ibwatch/parsers';
import { inputFileProblem, MAX_INPUT_FILE_BYTES, openInputFile, readInputChunk, readInputHead } from './input-file.ts';

const CHUNK = 1 << 20;

export interface ReadIbdiagnetOptions {
  /** Throw `ParseError` for a file of another run or a broken secondary file. Default false. */
  strict?: boolean;
  /** Refuse a file larger than this. Default {@link MAX_INPUT_FILE_BYTES} (1 GiB). */
  maxFileBytes?: number;
}

/** The files of `dir`, each opened only after the checks of input-file.ts. */
export function directoryFiles(dir: string, maxBytes = MAX_INPUT_FILE_BYTES): IbdiagnetFiles {
  return {
    dir,
    path: (name) => join(dir, name),
    size(name) {
      const path = join(dir, name);
      if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
      const problem = inputFileProblem(path, maxBytes);
      if (problem !== undefined) throw new ParseError({ format: name, file: path, reason: problem });
      return statSync(path).size;
    },
    head: (name, bytes) => readInputHead(join(dir, name), bytes, { format: name }).toString('utf8'),
    chunks: (name) => fileChunks(join(dir, name), name, maxBytes),
  };
}

/** The bytes of `path` in chunks of one re-used 1 MB buffer; the file is closed however the reading ends. */
function* fileChunks(path: string, format: string, maxBytes: number): Generator<Uint8Array> {
  const opts = { format, maxBytes };
  const file = openInputFile(path, opts);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let total = 0;
    for (;;) {
      const bytesRead = readInputChunk(file, buf, total, opts);
      if (bytesRead === 0) return;
      total += bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    file.close();
  }
}

/** Read and join the ibdiagnet2.* files of `dir` (the rules: `readIbdiagnetRun` in @ibwatch/parsers). */
export async function readIbdiagnetDir(
  dir: string,
  options: ReadIbdiagnetOptions = {},
): Promise<ParseResult<FabricSnapshot>> {
  return readIbdiagnetRun(directoryFiles(dir, options.maxFileBytes), { strict: options.strict });
}
