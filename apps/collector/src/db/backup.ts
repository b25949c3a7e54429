import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupResult {
  source: string;
  file: string;
  bytes: number;
  /** The copy's `PRAGMA user_version`: the schema version a restore brings back. */
  schemaVersion: number;
  /** What `PRAGMA integrity_check` said about the copy (always 'ok': anything else throws). */
  integrity: 'ok';
  seconds: number;
}

/**
 * Copies the database `source` into `target` with SQLite's online backup API while a collector
 * may be serving and writing it. The copy is one consistent snapshot: in WAL mode a reader never
 * blocks the writer, so it is taken in a single backup step (in steps of 100 pages, every commit
 * the server makes between two steps restarts the copy, which on a busy fabric may never end).
 *
 * The copy is written under a temporary name beside `target`, checked with `PRAGMA
 * integrity_check`, synced, and only then given its name, so `target` is either absent, the
 * previous file or a complete checked backup, never a half-written one. An existing `target`
 * is replaced only with `force`.
 */
export async function backupDatabase(source: string, target: string, opts: { force?: boolean } = {}) {
  const started = performance.now();
  const src = resolve(source);
  const file = resolve(target);
  if (src === file) throw new BackupError(`backup target ${file} is the database itself`);
  if (!existsSync(src)) throw new BackupError(`no database at ${src}`);
  if (!existsSync(dirname(file))) throw new BackupError(`directory ${dirname(file)} does not exist`);
  if (existsSync(file) && !opts.force)
    throw new BackupError(`${file} exists; choose a new name or pass --force to replace it`);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    // Read-only: the backup must never write to the database a server is using (no migration,
    // no clean-up of interrupted scans); it only takes a read transaction for the copy.
    const db = new Database(src, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      await db.backup(tmp, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    const schemaVersion = verifyCopy(tmp);
    syncFile(tmp);
    if (opts.force) renameSync(tmp, file);
    else {
      // link() fails with EEXIST if someone created `target` meanwhile, where rename() would
      // silently replace it.
      try {
        linkSync(tmp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new BackupError(`${file} appeared during the backup; not replaced (use --force)`);
        throw err;
      }
      rmSync(tmp);
    }
    syncFile(dirname(file));
    const result: BackupResult = {
      source: src,
      file,
      bytes: statSync(file).size,
      schemaVersion,
      integrity: 'ok',
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    return result;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}-wal`, { force: true });
    rmSync(`${tmp}-shm`, { force: true });
  }
}

/** integrity_check on the finished copy; returns its schema version. */
function verifyCopy(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    let text: string[];
    try {
      text = (db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[]).map(
        (p) => p.integrity_check,
      );
    } catch (err) {
      // A damaged source copies faithfully; SQLite may then throw instead of listing problems.
      text = [err instanceof Error ? err.message : String(err)];
    }
    if (text.join() !== 'ok')
      throw new BackupError(`the copy failed PRAGMA integrity_check: ${text.slice(0, 5).join('; ')}`);
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** fsync a file or a directory (a rename is durable only once its directory is synced). */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
