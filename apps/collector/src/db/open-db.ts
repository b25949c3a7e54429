import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the ibwatch SQLite file in WAL mode and applies pending
 * migrations. WAL lets the API read while a scan writes; `synchronous=NORMAL` is durable
 * across process crashes (only an OS crash may lose the last transaction).
 */
export function openDb(file: string, opts: { readonly?: boolean } = {}): Db {
  if (file !== ':memory:' && !opts.readonly) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (!opts.readonly) migrate(db);
  return db;
}
