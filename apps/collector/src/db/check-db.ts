import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { listMigrations } from './migrate.ts';

export interface DbCheck {
  file: string;
  /** True when the file can be served by this ibwatch: intact, and a schema it knows. */
  ok: boolean;
  /** Every line of `PRAGMA integrity_check` (just `ok` when intact). */
  integrity: string[];
  /** Rows that point at a missing parent (`PRAGMA foreign_key_check`). */
  foreignKeyProblems: number;
  schemaVersion: number;
  /** The newest schema version this ibwatch has a migration for. */
  latestVersion: number;
  /** current, older (upgraded at the next start), newer (this ibwatch is too old for it). */
  schema: 'current' | 'older' | 'newer';
  rows: Record<string, number>;
  /** Finish time of the newest successful scan or import: how old a restored copy's data is. */
  lastScanAt: number | null;
  problems: string[];
}

const COUNTED = ['scans', 'nodes', 'ports', 'links', 'findings', 'counter_deltas', 'nccl_runs'];

/**
 * Checks a database file before it is served (after a restore, or a disk scare) without
 * changing it: opened read-only, nothing migrated. Full `integrity_check` reads every page, so
 * it takes a while on a big fabric's database (see docs/operations.md).
 */
export function checkDatabase(path: string): DbCheck {
  const file = resolve(path);
  if (!existsSync(file)) throw new Error(`no database at ${file}`);
  const latestVersion = listMigrations().at(-1)?.version ?? 0;
  const r: DbCheck = {
    file,
    ok: false,
    integrity: [],
    foreignKeyProblems: 0,
    schemaVersion: 0,
    latestVersion,
    schema: 'older',
    rows: {},
    lastScanAt: null,
    problems: [],
  };
  // A damaged file makes SQLite throw rather than answer ("database disk image is malformed",
  // "file is not a database"): each step says what it could not do, and the check goes on.
  const step = (what: string, f: () => void) => {
    try {
      f();
    } catch (err) {
      r.problems.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let db: Database.Database | undefined;
  step('open', () => (db = new Database(file, { readonly: true, fileMustExist: true })));
  if (!db) return r;
  const d = db;
  try {
    step('schema version', () => {
      r.schemaVersion = d.pragma('user_version', { simple: true }) as number;
      r.schema = r.schemaVersion === latestVersion ? 'current' : r.schemaVersion < latestVersion ? 'older' : 'newer';
      if (r.schemaVersion === 0) r.problems.push('schema version 0: not an ibwatch database (or an empty one)');
      if (r.schema === 'newer')
        r.problems.push(
          `schema version ${r.schemaVersion} is newer than this ibwatch knows (${latestVersion}): run the ` +
            `ibwatch that wrote it`,
        );
    });
    step('integrity_check', () => {
      r.integrity = (d.pragma('integrity_check', { simple: false }) as { integrity_check: string }[]).map(
        (x) => x.integrity_check,
      );
      if (r.integrity.join() !== 'ok') r.problems.push(`integrity_check: ${r.integrity.slice(0, 5).join('; ')}`);
    });
    step('foreign_key_check', () => {
      r.foreignKeyProblems = (d.pragma('foreign_key_check') as unknown[]).length;
      if (r.foreignKeyProblems)
        r.problems.push(`foreign_key_check: ${r.foreignKeyProblems} rows point at a missing parent`);
    });
    if (r.schema === 'newer') return r;
    step('row counts', () => {
      const tables = new Set(d.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
      for (const t of COUNTED)
        if (tables.has(t)) r.rows[t] = d.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
      if (tables.has('scans'))
        r.lastScanAt =
          (d.prepare("SELECT MAX(finished_at) FROM scans WHERE status IN ('ok', 'partial')").pluck().get() as
            | number
            | null) ?? null;
    });
    return r;
  } finally {
    r.ok = r.problems.length === 0;
    d.close();
  }
}
