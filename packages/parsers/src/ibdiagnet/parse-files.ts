/**
 * Pure multi-file entry point: the texts (or line iterables) of an ibdiagnet output directory
 * in, one `FabricSnapshot` out. The directory reader does the same from disk, streaming.
 */
import type { FabricSnapshot, ParseResult, ParseWarning } from '@ibwatch/fabric';
import { ParseError } from '../common/parse-error.ts';
import { CablesParser } from './cables.ts';
import { DbCsvParser } from './db-csv.ts';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { LogParser } from './log.ts';
import { LstParser } from './lst.ts';
import { NetDumpParser } from './net-dump.ts';
import { PmParser } from './pm.ts';
import { SmParser } from './sm.ts';
import { buildIbdiagnetSnapshot } from './snapshot.ts';
import type { IbdiagnetParsed, SnapshotOptions } from './snapshot.ts';

/** A fresh line parser for each input kind. */
export const IBDIAGNET_PARSERS: {
  [K in keyof IbdiagnetParsed]-?: (
    file?: string,
    strict?: boolean,
  ) => LineParser<NonNullable<IbdiagnetParsed[K]>['value']>;
} = {
  dbCsv: (file, strict) => new DbCsvParser({ file, strict }),
  log: (file) => new LogParser({ file }),
  netDump: (file) => new NetDumpParser({ file }),
  pm: (file) => new PmParser({ file }),
  sm: (file) => new SmParser({ file }),
  lst: (file) => new LstParser({ file }),
  cables: (file) => new CablesParser({ file }),
};

/** Inputs of {@link parseIbdiagnetFiles}: any subset of the files, as text or lines. */
export type IbdiagnetTexts = Partial<Record<keyof IbdiagnetParsed, LineSource>>;

/**
 * Turn a secondary file's `ParseError` into a warning (the file is skipped) unless `strict`.
 * The db_csv is the primary source: its `ParseError` always propagates.
 */
export function secondaryFailure(err: unknown, strict: boolean, warnings: ParseWarning[]): void {
  if (strict || !(err instanceof ParseError)) throw err;
  warnings.push({ file: err.file ?? err.format, line: err.line, message: `file skipped: ${err.message}` });
}

/**
 * Parse the given files of one ibdiagnet run and join them. Files from another run are
 * skipped with a warning (or, with `strict`, throw) — see runs.ts.
 */
export function parseIbdiagnetFiles(texts: IbdiagnetTexts, options: SnapshotOptions = {}): ParseResult<FabricSnapshot> {
  const parsed: IbdiagnetParsed = {};
  const warnings: ParseWarning[] = [];
  for (const k of Object.keys(IBDIAGNET_PARSERS) as (keyof IbdiagnetParsed)[]) {
    const input = texts[k];
    if (input === undefined) continue;
    try {
      (parsed as Record<string, unknown>)[k] = runLineParser(
        IBDIAGNET_PARSERS[k](undefined, options.strict) as LineParser<unknown>,
        input,
      );
    } catch (err) {
      if (k === 'dbCsv') throw err;
      secondaryFailure(err, options.strict ?? false, warnings);
    }
  }
  const result = buildIbdiagnetSnapshot(parsed, options);
  return { value: result.value, warnings: [...warnings, ...result.warnings] };
}
