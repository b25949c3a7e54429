import { existsSync } from 'node:fs';
import { ParseError, parseNodeNameMap, readInputFile } from '@ibwatch/parsers';
import { readState } from '@ibwatch/lab';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/open-db.ts';
import { createScansRepo } from './db/scans-repo.ts';
import { NameBook } from './names.ts';
import { createToolRunner, type ToolRunner } from './sources/tool-runner.ts';
import { createScanService } from './scans/service.ts';
import type { ScanService } from './scans/types.ts';

export interface Context {
  config: Config;
  db: Db;
  runner: ToolRunner;
  names: NameBook;
  scans: ScanService;
  nameWarnings: string[];
}

/**
 * The node-name map: the configured file, else (lab source) the map the lab generated.
 * A bad line is a warning, never fatal: names are a convenience, GUIDs stay the truth.
 */
export function loadNames(config: Config): { names: NameBook; warnings: string[] } {
  let file = config.nodeNameMap;
  if (!file && config.source === 'lab') file = readState(config.labDir)?.paths.nodeNameMap ?? null;
  if (!file || !existsSync(file))
    return { names: new NameBook(), warnings: file ? [`node-name map ${file} not found`] : [] };
  let text: string;
  try {
    // A regular file of sane size (a FIFO here would block the start-up): see input-file.ts.
    text = readInputFile(file, { format: 'node-name map', maxBytes: 64 << 20 }).toString('utf8');
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    return { names: new NameBook(), warnings: [err.message] };
  }
  const r = parseNodeNameMap(text, { file });
  const rackOf = (e: (typeof r.value)[number]) => e.rack ?? e.location ?? null;
  return {
    names: NameBook.fromMap(r.value.map((e) => [e.guid, { name: e.name, rack: rackOf(e), u: e.u ?? null }])),
    warnings: r.warnings.map((w) => `${file}:${w.line ?? '?'}: ${w.message}`),
  };
}

/** Everything the server and the CLI share: database, names, tool runner, scan service. */
export function createContext(
  config: Config,
  opts: { runner?: ToolRunner; db?: Db; busyTimeoutMs?: number } = {},
): Context {
  const db = opts.db ?? openDb(config.dbFile, { busyTimeoutMs: opts.busyTimeoutMs });
  const { names, warnings } = loadNames(config);
  // Scans left 'running' by a crash or kill: their transaction never committed. A database that
  // refuses writes (read-only file, disk full) must not stop the start-up: a supervisor would
  // restart the process in a loop. It serves reads, and each scan then fails saying why.
  try {
    createScansRepo(db).failInterrupted(Date.now());
  } catch (err) {
    warnings.push(
      `database ${config.dbFile} refuses writes (${err instanceof Error ? err.message : String(err)}): serving stored data only`,
    );
  }
  const runner =
    opts.runner ?? createToolRunner({ timeoutMs: config.toolTimeoutMs, maxOutputBytes: config.toolMaxOutputBytes });
  return { config, db, runner, names, nameWarnings: warnings, scans: createScanService(db, config, runner, names) };
}
