import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

/**
 * How long a write waits for another connection's write transaction (the server, a CLI
 * import, another process on the same file) before SQLite gives up with SQLITE_BUSY. The wait
 * is synchronous: in the server it holds the event loop, so it stays short there; the CLI,
 * with no one else to serve, waits longer.
 */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) the ibwatch SQLite file in WAL mode and applies pending
 * migrations. WAL lets the API read while a scan writes; `synchronous=NORMAL` is durable
 * across process crashes (only an OS crash may lose the last transaction).
 */
export function openDb(file: string, opts: { readonly?: boolean; busyTimeoutMs?: number } = {}): Db {
  if (file !== ':memory:' && !opts.readonly) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  // First: switching to WAL and migrating may have to wait for another process too.
  db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  if (!opts.readonly) migrate(db);
  return db;
}

/**
 * Runs `fn` in a write transaction that takes the write lock at its start (BEGIN IMMEDIATE),
 * waiting up to the busy timeout for another writer. Every transaction that writes must be one:
 * a deferred transaction (better-sqlite3's default) reads first and asks for the lock at its
 * first write, and if another connection committed in between, SQLite cannot let it wait (its
 * snapshot is stale) and fails it at once with SQLITE_BUSY, "database is locked". That is how
 * 1 of 32 parallel `ibwatch import nccl` uploads was lost (issue 14).
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
