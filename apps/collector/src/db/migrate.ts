import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Numbered forward-only migrations: `NNNN-name.sql`, applied in order inside one transaction each. */
export function listMigrations(dir = MIGRATIONS_DIR): { version: number; name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * Applies every migration newer than `PRAGMA user_version`; returns the versions applied. A
 * database newer than the last migration (written by a newer ibwatch, or a backup of one
 * restored under an older one) is refused: this code does not know its tables.
 */
export function migrate(db: Database.Database, dir = MIGRATIONS_DIR): number[] {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  // Up to date (the usual case, and a read-only file's): no write lock taken at all.
  const current = version();
  const all = listMigrations(dir);
  const latest = all.at(-1)?.version ?? 0;
  if (current > latest)
    throw new Error(
      `database ${db.name} has schema version ${current}, newer than this ibwatch knows (${latest}): ` +
        'run the ibwatch that wrote it, or restore a backup taken with this version',
    );
  const applied: number[] = [];
  for (const m of all) {
    if (m.version <= current) continue;
    // Under the write lock, the version is read again: two processes opening a new file at
    // once must not both apply a migration.
    const done = db
      .transaction(() => {
        if (version() >= m.version) return false;
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
        return true;
      })
      .immediate();
    if (done) applied.push(m.version);
  }
  return applied;
}
