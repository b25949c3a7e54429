/**
 * Which files of an ibdiagnet output directory belong to the same run.
 *
 * ibdiagnet reuses its output directory (`/var/tmp/ibdiagnet2` by default) and only rewrites
 * the files the current options produce, so a directory can mix runs. Real case (sample
 * ndr-fat-tree-a): `.cables` and `.net_dump_ext` say
 *   `# Running timestamp : 2025-03-15 06:54:44 UTC +0000`
 * while every other file says `2025-03-31 23:43:18 UTC +0000`. Joining them would attach
 * two-week-old cable data to today's ports.
 *
 * Decision: the db_csv run is authoritative (its RUN_INFO `Date`), else the .log's, else the
 * first file's. Files of another run are skipped with a warning naming them and both
 * timestamps; with `strict: true` they make the whole read fail with a `ParseError` instead.
 * A file without a timestamp header cannot be verified: it is used, with a warning.
 */
import type { ParseWarning } from '@ibwatch/fabric';
import { ParseError } from '../common/parse-error.ts';

export interface FileStamp {
  /** File name, e.g. `ibdiagnet2.cables`. */
  file: string;
  /** Raw `Running timestamp` value, undefined when the file has none. */
  timestamp?: string;
}

export interface RunSelection {
  /** Timestamp of the run kept, when any file had one. */
  run?: string;
  /** Files to use. */
  accepted: Set<string>;
  /** Files of another run, skipped. */
  rejected: FileStamp[];
}

const norm = (ts: string): string => ts.trim().replace(/\s+/g, ' ');

/**
 * Choose the run and the files that belong to it. `stamps` are in priority order: the first
 * stamped entry (db_csv, then log, ...) defines the run.
 */
export function selectRun(stamps: FileStamp[], strict: boolean, warnings: ParseWarning[]): RunSelection {
  const ref = stamps.find((s) => s.timestamp !== undefined);
  const sel: RunSelection = { run: ref?.timestamp, accepted: new Set(), rejected: [] };
  for (const s of stamps) {
    if (s.timestamp === undefined) {
      warnings.push({
        file: s.file,
        message: `${s.file} has no "Running timestamp" header; used without checking it belongs to the run`,
      });
      sel.accepted.add(s.file);
    } else if (ref?.timestamp === undefined || norm(s.timestamp) === norm(ref.timestamp)) {
      sel.accepted.add(s.file);
    } else {
      const reason = `${s.file} is from another ibdiagnet run (${s.timestamp}) than ${ref.file} (${ref.timestamp})`;
      if (strict)
        throw new ParseError({
          format: 'ibdiagnet2',
          file: s.file,
          reason,
          text: `Running timestamp : ${s.timestamp}`,
        });
      warnings.push({ file: s.file, message: `${reason}; skipped` });
      sel.rejected.push(s);
    }
  }
  return sel;
}
