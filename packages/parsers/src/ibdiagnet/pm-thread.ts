/**
 * A big db_csv read by two threads. The PM_INFO / PM_DELTA rows are 24 of the 60 MB of a
 * 10k-GPU file and about 40% of its parse (4M counter cells); a worker thread reads them (its
 * own pass over the file, `pm: 'only'`) while the main thread reads everything else
 * (`pm: 'skip'`). The directory is read in less wall-clock time (1.2-1.3x less on the 2-vCPU
 * build machine, where the threads contend; `parse 1T` in the parser bench), and the collector's
 * event loop is not held by the PM rows. The tables come back as transferred arrays, not copies.
 *
 * The joined result is what one parser reading the whole file gives (pm-thread.test.ts): the
 * same tables, the same warnings in the same order, and of two `ParseError`s the one found on
 * the earlier line. If the worker cannot run (no thread, its loader missing) the PM rows are
 * read on the main thread after all.
 */
import { Worker } from 'node:worker_threads';
import type { CounterTable, ParseResult, ParseWarning } from '@ibwatch/fabric';
import { ParseError } from '../parse-error.ts';
import type { ParseErrorInit } from '../parse-error.ts';
import { DB_CSV_FORMAT, DbCsvParser, isPmSection } from './db-csv.ts';
import type { DbCsvData, DbCsvSectionInfo } from './db-csv-types.ts';
import { parseFile } from './read-file.ts';

/** db_csv files from this size on have their PM rows read on the worker (a 2k-GPU file is ~12 MB). */
export const PM_THREAD_MIN_BYTES = 8 << 20;

/** What the main thread asks the worker: the db_csv at `path` (also its name in messages). */
export interface PmJob {
  id: number;
  path: string;
}

/**
 * A table as posted: its node GUIDs as runs (a switch's 64 rows name one GUID), so the message
 * carries ~11k strings instead of 2 x 63k at 10k GPUs. The arrays are transferred.
 */
export interface PostedTable extends Omit<CounterTable, 'nodeGuids'> {
  guids: string[];
  /** Rows of each of `guids` in turn. */
  runs: Uint32Array;
}

/** `t` as the worker posts it (its arrays to be transferred, see pm-thread-worker.ts). */
export function postedTable(t: CounterTable): PostedTable {
  const guids: string[] = [];
  const runs: number[] = [];
  for (let r = 0; r < t.rows; r++) {
    const g = t.nodeGuids[r]!;
    if (guids.length > 0 && guids[guids.length - 1] === g) runs[runs.length - 1]!++;
    else {
      guids.push(g);
      runs.push(1);
    }
  }
  const { nodeGuids: _, ...rest } = t;
  return { ...rest, guids, runs: Uint32Array.from(runs) };
}

/** A posted table as the main thread receives it, node GUIDs one per row again. */
function receivedTable(p: PostedTable): CounterTable {
  const { guids, runs, ...rest } = p;
  const nodeGuids = new Array<string>(p.rows);
  let r = 0;
  runs.forEach((n, k) => {
    nodeGuids.fill(guids[k]!, r, r + n);
    r += n;
  });
  return { ...rest, nodeGuids };
}

/** What the worker read: the PM tables and what the join is checked with. */
export interface PmPart {
  pmInfo: PostedTable;
  pmDelta: PostedTable;
  runTimestamp?: string;
  sections: DbCsvSectionInfo[];
  warnings: ParseWarning[];
  warnedAt: number[];
}

export type PmReply =
  | { ready: true }
  | { id: number; part: PmPart }
  | { id: number; parseError: ParseErrorInit; foundAt: number }
  | { id: number; failure: string };

/** Who read the PM rows: the worker, or the main thread when the worker could not run. */
export type PmReader = 'worker' | 'main thread';

/** A `ParseError` and the line it was found on (the error's own `line` may name an earlier one). */
export interface PmError {
  error: ParseError;
  foundAt: number;
}

type PmOutcome = { part: PmPart; by: PmReader } | PmError;

/**
 * Read the PM rows of the db_csv at `path`, every other section only counted: what the worker
 * does, and the main thread when the worker cannot run. Throws only what is not a `ParseError`.
 */
export async function readPmPart(path: string): Promise<{ part: PmPart } | PmError> {
  const parser = new DbCsvParser({ file: path, pm: 'only' });
  try {
    const { value, warnings } = await parseFile(path, parser);
    const { pmInfo, pmDelta, runTimestamp, sections } = value;
    return {
      part: {
        pmInfo: postedTable(pmInfo),
        pmDelta: postedTable(pmDelta),
        runTimestamp,
        sections,
        warnings,
        warnedAt: parser.warnedAt,
      },
    };
  } catch (err) {
    if (err instanceof ParseError) return { error: err, foundAt: parser.lineNo };
    throw err;
  }
}

/** One worker for the process, started on first use; it keeps the process alive only while it has work. */
export class PmThread {
  private worker: Worker | undefined;
  /** The worker has loaded its code (it takes ~0.4 s: tsx and the parsers). */
  private ready = false;
  private readonly pending = new Map<number, (r: PmReply) => void>();
  private nextId = 1;

  /** `entry`: the worker's script (tests give one that cannot start). */
  constructor(private readonly entry = new URL('./pm-thread-worker.mjs', import.meta.url)) {}

  /**
   * True once the worker is loaded; starts it when it is not running. A caller that does not
   * want to wait for a cold start reads on one thread meanwhile.
   */
  warm(): boolean {
    if (this.worker === undefined) {
      try {
        this.start();
      } catch {
        return false;
      }
    }
    return this.ready;
  }

  request(path: string): Promise<PmReply> {
    let w: Worker;
    try {
      w = this.worker ?? this.start();
    } catch (err) {
      return Promise.resolve({ id: 0, failure: err instanceof Error ? err.message : String(err) });
    }
    const id = this.nextId++;
    w.ref();
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      w.postMessage({ id, path } satisfies PmJob);
    });
  }

  private start(): Worker {
    const w = new Worker(this.entry);
    w.on('message', (r: PmReply) => {
      if ('ready' in r) {
        this.ready = true;
        return;
      }
      const done = this.pending.get(r.id);
      this.pending.delete(r.id);
      if (this.pending.size === 0) w.unref();
      done?.(r);
    });
    const fail = (why: string): void => {
      if (this.worker === w) {
        this.worker = undefined;
        this.ready = false;
      }
      for (const [id, done] of this.pending) done({ id, failure: why });
      this.pending.clear();
    };
    w.on('error', (err) => fail(err.message));
    w.on('exit', (code) => fail(`PM worker exited with code ${code}`));
    w.unref();
    this.worker = w;
    return w;
  }
}

const thread = new PmThread();

/** Whether the process's PM worker is loaded; starts it when it is not (see {@link PmThread.warm}). */
export const pmThreadWarm = (): boolean => thread.warm();

/** The worker's reply, or the PM rows read here when the worker could not run. */
async function outcome(reply: Promise<PmReply>, path: string): Promise<PmOutcome> {
  const r = await reply;
  if ('part' in r) return { part: r.part, by: 'worker' };
  if ('parseError' in r) return { error: new ParseError(r.parseError), foundAt: r.foundAt };
  const here = await readPmPart(path);
  return 'part' in here ? { part: here.part, by: 'main thread' } : here;
}

/** The PM sections as (name, lines, rows): both parts must have seen the same ones. */
const pmSections = (sections: DbCsvSectionInfo[]): string =>
  sections
    .filter((s) => isPmSection(s.name))
    .map((s) => `${s.name}@${s.startLine}-${s.endLine}:${s.rows}`)
    .join(' ');

/**
 * Put the PM part into the main part: the tables, and the warnings merged by the line each was
 * given on. Throws when the two parts did not read the same file (see below).
 */
export function joinPmPart(
  path: string,
  main: ParseResult<DbCsvData>,
  mainWarnedAt: number[],
  part: PmPart,
): ParseResult<DbCsvData> {
  const data = main.value;
  if (part.runTimestamp !== data.runTimestamp || pmSections(part.sections) !== pmSections(data.sections)) {
    throw new ParseError({
      format: DB_CSV_FORMAT,
      file: path,
      reason: 'file changed while it was read (its two readers saw different runs or PM sections)',
    });
  }
  data.pmInfo = receivedTable(part.pmInfo);
  data.pmDelta = receivedTable(part.pmDelta);
  // Both lists are in the order they were given; merged by the line each was given on.
  const warnings: ParseWarning[] = [];
  let i = 0;
  let j = 0;
  while (i < main.warnings.length || j < part.warnings.length) {
    const takeMain = j === part.warnings.length || (i < main.warnings.length && mainWarnedAt[i]! <= part.warnedAt[j]!);
    warnings.push(takeMain ? main.warnings[i++]! : part.warnings[j++]!);
  }
  return { value: data, warnings };
}

/** A db_csv being read on two threads; {@link readDbCsvOnTwoThreads}. */
export interface TwoThreadRead {
  /** Everything but the PM tables (they are empty until `join`). */
  main: ParseResult<DbCsvData>;
  /** Waits for the PM part and puts it in `main`; throws the PM sections' `ParseError`. */
  join(): Promise<ParseResult<DbCsvData>>;
  /** Who read the PM rows, once `join` has returned. */
  pmReadBy?: PmReader;
}

/**
 * Start reading the PM rows of the db_csv at `path` on the worker and read the rest here.
 * Resolves once the main part is read, so the caller can go on with other files meanwhile.
 */
export async function readDbCsvOnTwoThreads(
  path: string,
  on: PmThread = thread,
  options: { strict?: boolean } = {},
): Promise<TwoThreadRead> {
  const pm = outcome(on.request(path), path);
  // Never left unhandled: awaited below or by `join`.
  pm.catch(() => undefined);
  const parser = new DbCsvParser({ file: path, pm: 'skip', strict: options.strict });
  let main: ParseResult<DbCsvData>;
  try {
    main = await parseFile(path, parser);
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    // The worker may have met an error earlier in the file (a PM row of binary data...).
    const o = await pm.catch(() => undefined);
    throw o !== undefined && 'error' in o && o.foundAt < parser.lineNo ? o.error : err;
  }
  const read: TwoThreadRead = {
    main,
    async join() {
      const o = await pm;
      if ('error' in o) throw o.error;
      read.pmReadBy = o.by;
      return joinPmPart(path, main, parser.warnedAt, o.part);
    },
  };
  return read;
}
