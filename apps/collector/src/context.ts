import { existsSync } from 'node:fs';
import { ParseError, parseNodeNameMap } from '@ibwatch/parsers';
import { readInputFile } from './input/input-file.ts';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/open-db.ts';
import { createScansRepo } from './db/scans-repo.ts';
import { NameBook } from './names.ts';
import { createToolRunner, type ToolRunner } from './sources/tool-runner.ts';
import { loadSourceAdapter } from './sources/tool-env.ts';
import type { SourceAdapter } from './sources/types.ts';
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
 * The node-name map: the configured file, else the map the source generated (the lab's, through
 * its adapter). A bad line is a warning, never fatal: names are a convenience, GUIDs stay the truth.
 */
export function loadNames(config: Config, adapter?: SourceAdapter): { names: NameBook; warnings: string[] } {
  let file = config.nodeNameMap;
  if (!file && config.source === 'lab') {
    if (!adapter) return { names: new NameBook(), warnings: [LAB_NAMES_NOT_LOADED] };
    file = adapter.nodeNameMap();
  }
  if (!file || !existsSync(file))
    return { names: new NameBook(), warnings: file ? [`node-name map ${file} not found`] : [] };
  let text: string;
  try {
    // A regular file of sane size (a FIFO here would block the start-up): see input/input-file.ts.
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

const LAB_NAMES_NOT_LOADED =
  "the lab's node-name map was not read: the context was created without the lab's source adapter (openContext)";

export interface ContextOptions {
  runner?: ToolRunner;
  db?: Db;
  busyTimeoutMs?: number;
  /** The source's adapter (loadSourceAdapter); without one, the lab's is loaded at the first scan. */
  adapter?: SourceAdapter;
}

/**
 * The context with its source adapter loaded first: what the server and the CLI use. With
 * IBWATCH_SOURCE=lab that is the only way the lab's node-name map is read.
 */
export async function openContext(config: Config, opts: ContextOptions = {}): Promise<Context> {
  return createContext(config, { ...opts, adapter: opts.adapter ?? (await loadSourceAdapter(config)) });
}

/** {@link loadNames} with the source's adapter loaded first (`ibwatch status`: no context). */
export async function readNames(config: Config): Promise<{ names: NameBook; warnings: string[] }> {
  return loadNames(config, await loadSourceAdapter(config));
}

/** Everything the server and the CLI share: database, names, tool runner, scan service. */
export function createContext(config: Config, opts: ContextOptions = {}): Context {
  const db = opts.db ?? openDb(config.dbFile, { busyTimeoutMs: opts.busyTimeoutMs });
  const { names, warnings } = loadNames(config, opts.adapter);
  // Scans left 'running' by a crash or kill: their transaction never committed. A database that
  // refuses writes (read-only file, disk full) must not stop the start-up: a supervisor would
  // restart the process in a loop. It serves reads, and each scan then fails saying why.
  try {
    createScansRepo(db).failInterrupted(Date.now());
  } catch (err) {
    warnings.push(
      `database ${config.dbFile} refuses writes (${err instanceof Error ? err.message : String(err)}): serving ` +
        `stored data only`,
    );
  }
  const runner =
    opts.runner ?? createToolRunner({ timeoutMs: config.toolTimeoutMs, maxOutputBytes: config.toolMaxOutputBytes });
  return {
    config,
    db,
    runner,
    names,
    nameWarnings: warnings,
    scans: createScanService(db, config, runner, names, opts.adapter),
  };
}
