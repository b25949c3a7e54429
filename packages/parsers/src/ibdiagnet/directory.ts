/**
 * `readIbdiagnetDir(dir)`: read an ibdiagnet output directory into one `FabricSnapshot`.
 *
 * 1. db_csv is parsed first (streamed); its RUN_INFO `Date` defines the run (else the .log's).
 * 2. Each other file's `# Running timestamp` is read from its first 4 KB; files of another run
 *    are not parsed at all: skipped with a warning, or `ParseError` with `strict: true`.
 * 3. The rest are streamed through their parsers and joined (snapshot.ts).
 * A broken secondary file (truncated, binary) is skipped with a warning unless `strict`; a
 * broken db_csv always throws. Every file is optional, but a directory with none throws. A name
 * that is there but is not a regular file (FIFO, device, directory, symbolic link to nothing) or
 * is over the size limit counts as broken, never as absent (input-file.ts).
 */
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FabricSnapshot, ParseResult, ParseWarning } from '@ibwatch/fabric';
import { MAX_INPUT_FILE_BYTES, inputFileProblem } from '../input-file.ts';
import { ParseError } from '../parse-error.ts';
import type { LineParser } from './line-source.ts';
import { IBDIAGNET_PARSERS, secondaryFailure } from './parse-files.ts';
import { NetDumpParser } from './net-dump.ts';
import { parseFile, readHead } from './read-file.ts';
import { selectRun } from './runs.ts';
import type { FileStamp } from './runs.ts';
import { buildIbdiagnetSnapshot, IBDIAGNET_FILES, RUN_PRIORITY } from './snapshot.ts';
import type { IbdiagnetParsed, SnapshotOptions } from './snapshot.ts';
import { readHeaderLine } from './values.ts';
import type { DumpHeader } from './values.ts';

export interface ReadIbdiagnetOptions {
  /** Throw `ParseError` for a file of another run or a broken secondary file. Default false. */
  strict?: boolean;
  /** Refuse a file larger than this. Default {@link MAX_INPUT_FILE_BYTES} (1 GiB). */
  maxFileBytes?: number;
}

/**
 * Size of the file at `path`, undefined when there is none (synchronous: see read-file.ts).
 * A name that is there but cannot be read as a file (a FIFO, a device, a directory, a symbolic
 * link to nothing, over the size limit) throws `ParseError` saying so: it is not "no file".
 */
function fileSize(path: string, format: string, maxBytes: number): number | undefined {
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  const problem = inputFileProblem(path, maxBytes);
  if (problem !== undefined) throw new ParseError({ format, file: path, reason: problem });
  return statSync(path).size;
}

async function headTimestamp(path: string): Promise<string | undefined> {
  const h: DumpHeader = {};
  for (const line of (await readHead(path)).split('\n').slice(0, 40)) readHeaderLine(line.replace(/\r$/, ''), h);
  return h.runningTimestamp;
}

/** Read and join the ibdiagnet2.* files of `dir` (see the module comment for the rules). */
export async function readIbdiagnetDir(
  dir: string,
  options: ReadIbdiagnetOptions = {},
): Promise<ParseResult<FabricSnapshot>> {
  const strict = options.strict ?? false;
  const warnings: ParseWarning[] = [];
  const kinds = [] as (keyof IbdiagnetParsed)[];
  const maxBytes = options.maxFileBytes ?? MAX_INPUT_FILE_BYTES;
  for (const k of RUN_PRIORITY) {
    let size: number | undefined;
    try {
      size = fileSize(join(dir, IBDIAGNET_FILES[k]), IBDIAGNET_FILES[k], maxBytes);
    } catch (err) {
      // The db_csv is the primary source: one that is there but unreadable fails the read.
      if (k === 'dbCsv') throw err;
      secondaryFailure(err, strict, warnings);
      continue;
    }
    if (size === undefined) continue;
    kinds.push(k);
  }
  if (kinds.length === 0) {
    throw new ParseError({ format: 'ibdiagnet2', file: dir, reason: 'no ibdiagnet2.* files in directory' });
  }
  const parsed: IbdiagnetParsed = {};
  const parse = async (k: keyof IbdiagnetParsed): Promise<void> => {
    const path = join(dir, IBDIAGNET_FILES[k]);
    // With db_csv's links, the snapshot takes only port records from .net_dump (snapshot.ts).
    const parser =
      k === 'netDump' && (parsed.dbCsv?.value.links.length ?? 0) > 0
        ? new NetDumpParser({ file: path, fields: 'ports' })
        : IBDIAGNET_PARSERS[k](path, strict);
    try {
      (parsed as Record<string, unknown>)[k] = await parseFile(path, parser as LineParser<unknown>, { maxBytes });
    } catch (err) {
      if (k === 'dbCsv') throw err;
      secondaryFailure(err, strict, warnings);
    }
  };

  const stamps: FileStamp[] = [];
  if (kinds[0] === 'dbCsv') {
    await parse('dbCsv');
    stamps.push({ file: IBDIAGNET_FILES.dbCsv, timestamp: parsed.dbCsv!.value.runTimestamp });
  }
  for (const k of kinds) {
    if (k !== 'dbCsv')
      stamps.push({ file: IBDIAGNET_FILES[k], timestamp: await headTimestamp(join(dir, IBDIAGNET_FILES[k])) });
  }
  const sel = selectRun(stamps, strict, warnings);
  // Fallback-only files are not read when db_csv already has their data (.pm is 1.2 MB for
  // 542 ports, and PM_INFO holds the same counters).
  const redundant = (k: keyof IbdiagnetParsed): boolean => {
    const db = parsed.dbCsv?.value;
    if (k === 'pm') return db !== undefined && db.pmInfo.rows > 0;
    return k === 'lst' && db !== undefined && db.links.length > 0 && db.nodes.length > 0;
  };
  for (const k of kinds) {
    if (k === 'dbCsv' || !sel.accepted.has(IBDIAGNET_FILES[k])) continue;
    if (!redundant(k)) await parse(k);
  }

  const result = buildIbdiagnetSnapshot(parsed, {
    strict,
    preselected: { run: sel.run, skipped: sel.rejected.map((r) => r.file) },
  } satisfies SnapshotOptions);
  return { value: result.value, warnings: [...warnings, ...result.warnings] };
}
