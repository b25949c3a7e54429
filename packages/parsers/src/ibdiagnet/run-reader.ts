/**
 * `readIbdiagnetRun(files)`: the files of one ibdiagnet output directory into one
 * `FabricSnapshot`, read through {@link IbdiagnetFiles}: the caller opens the files (the
 * collector's apps/collector/src/input/ibdiagnet-dir.ts, with its checks against FIFOs, devices
 * and huge files), this module decides what to read and in which order. Pure: no I/O here.
 *
 * 1. db_csv is parsed first (streamed); its RUN_INFO `Date` defines the run (else the .log's).
 * 2. Each other file's `# Running timestamp` is read from its first 4 KB; files of another run
 *    are not parsed at all: skipped with a warning, or `ParseError` with `strict: true`.
 * 3. The rest are streamed through their parsers and joined (snapshot.ts).
 * A broken secondary file (truncated, binary) is skipped with a warning unless `strict`; a
 * broken db_csv always throws. Every file is optional, but a directory with none throws. A name
 * that is there but may not be read (`size` throws) counts as broken, never as absent.
 */
import type { FabricSnapshot, ParseResult, ParseWarning } from '@ibwatch/fabric';
import { ParseError } from '../common/parse-error.ts';
import { runLineParserChunks } from '../common/line-runner.ts';
import type { LineParser } from '../common/line-runner.ts';
import { IBDIAGNET_PARSERS, secondaryFailure } from './parse-files.ts';
import { NetDumpParser } from './net-dump.ts';
import { selectRun } from './runs.ts';
import type { FileStamp } from './runs.ts';
import { buildIbdiagnetSnapshot, IBDIAGNET_FILES, RUN_PRIORITY } from './snapshot.ts';
import type { IbdiagnetParsed, SnapshotOptions } from './snapshot.ts';
import { readHeaderLine } from './values.ts';
import type { DumpHeader } from './values.ts';

/** The files of one directory as the caller reads them; `name` is a file name (`ibdiagnet2.pm`). */
export interface IbdiagnetFiles {
  /** What messages call the directory. */
  readonly dir: string;
  /** What messages call the file (its path). */
  path(name: string): string;
  /** Its size in bytes; undefined when there is no such file; `ParseError` when it is there but may not be read. */
  size(name: string): number | undefined;
  /** Its first `bytes` bytes as text (the `# Running timestamp` header). */
  head(name: string, bytes: number): string;
  /** Its bytes, chunk after chunk (a chunk may be re-used once the next is asked for); `ParseError` when refused. */
  chunks(name: string): Iterable<Uint8Array>;
}

export interface IbdiagnetRunOptions {
  /** Throw `ParseError` for a file of another run or a broken secondary file. Default false. */
  strict?: boolean;
}

function headTimestamp(files: IbdiagnetFiles, name: string): string | undefined {
  const h: DumpHeader = {};
  for (const line of files.head(name, 4096).split('\n').slice(0, 40)) readHeaderLine(line.replace(/\r$/, ''), h);
  return h.runningTimestamp;
}

/** Read and join the ibdiagnet2.* files (see the module comment for the rules). */
export function readIbdiagnetRun(
  files: IbdiagnetFiles,
  options: IbdiagnetRunOptions = {},
): ParseResult<FabricSnapshot> {
  const strict = options.strict ?? false;
  const warnings: ParseWarning[] = [];
  const kinds = [] as (keyof IbdiagnetParsed)[];
  for (const k of RUN_PRIORITY) {
    let size: number | undefined;
    try {
      size = files.size(IBDIAGNET_FILES[k]);
    } catch (err) {
      // The db_csv is the primary source: one that is there but unreadable fails the read.
      if (k === 'dbCsv') throw err;
      secondaryFailure(err, strict, warnings);
      continue;
    }
    if (size !== undefined) kinds.push(k);
  }
  if (kinds.length === 0) {
    throw new ParseError({ format: 'ibdiagnet2', file: files.dir, reason: 'no ibdiagnet2.* files in directory' });
  }
  const parsed: IbdiagnetParsed = {};
  const parse = (k: keyof IbdiagnetParsed): void => {
    const name = IBDIAGNET_FILES[k];
    const path = files.path(name);
    // With db_csv's links, the snapshot takes only port records from .net_dump (snapshot.ts).
    const parser =
      k === 'netDump' && (parsed.dbCsv?.value.links.length ?? 0) > 0
        ? new NetDumpParser({ file: path, fields: 'ports' })
        : IBDIAGNET_PARSERS[k](path, strict);
    try {
      (parsed as Record<string, unknown>)[k] = runLineParserChunks(parser as LineParser<unknown>, files.chunks(name));
    } catch (err) {
      if (k === 'dbCsv') throw err;
      secondaryFailure(err, strict, warnings);
    }
  };

  const stamps: FileStamp[] = [];
  if (kinds[0] === 'dbCsv') {
    parse('dbCsv');
    stamps.push({ file: IBDIAGNET_FILES.dbCsv, timestamp: parsed.dbCsv!.value.runTimestamp });
  }
  for (const k of kinds) {
    if (k !== 'dbCsv') stamps.push({ file: IBDIAGNET_FILES[k], timestamp: headTimestamp(files, IBDIAGNET_FILES[k]) });
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
    if (!redundant(k)) parse(k);
  }

  const result = buildIbdiagnetSnapshot(parsed, {
    strict,
    preselected: { run: sel.run, skipped: sel.rejected.map((r) => r.file) },
  } satisfies SnapshotOptions);
  return { value: result.value, warnings: [...warnings, ...result.warnings] };
}
