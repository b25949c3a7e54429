import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { listMigrations, migrate } from './migrate.ts';
import { openDb } from './open-db.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-');
afterAll(tmp.cleanup);

describe('migrate()', () => {
  it('applies every migration to a fresh database and sets user_version to the last one', () => {
    const db = new Database(join(tmp.dir, 'fresh.db'));
    try {
      const all = listMigrations();
      expect(all.length).toBeGreaterThan(0);
      expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
      expect(migrate(db)).toEqual(all.map((m) => m.version));
      expect(db.pragma('user_version', { simple: true })).toBe(all.at(-1)!.version);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      expect(tables).toEqual(
        expect.arrayContaining([
          'scans',
          'nodes',
          'ports',
          'links',
          'findings',
          'nccl_runs',
          'sm_observations',
          'cables',
        ]),
      );
    } finally {
      db.close();
    }
  });

  it('is a no-op when run again', () => {
    const file = join(tmp.dir, 'twice.db');
    const db = new Database(file);
    try {
      migrate(db);
      const schema = db.prepare('SELECT sql FROM sqlite_master ORDER BY name').pluck().all();
      expect(migrate(db)).toEqual([]);
      expect(db.prepare('SELECT sql FROM sqlite_master ORDER BY name').pluck().all()).toEqual(schema);
    } finally {
      db.close();
    }
  });

  it('opens an existing database without re-applying (openDb twice keeps the data)', () => {
    const file = join(tmp.dir, 'reopen.db');
    const a = openDb(file);
    a.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    a.close();
    const b = openDb(file);
    try {
      expect(b.prepare("SELECT value FROM settings WHERE key = 'k'").pluck().get()).toBe('v');
      expect(b.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(b.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      b.close();
    }
  });

  it('refuses a database newer than its last migration (a backup of a newer ibwatch) and changes nothing', () => {
    const file = join(tmp.dir, 'newer.db');
    const latest = listMigrations().at(-1)!.version;
    const db = new Database(file);
    db.exec('CREATE TABLE from_the_future (x)');
    db.pragma(`user_version = ${latest + 1}`);
    db.close();
    expect(() => openDb(file)).toThrow(
      `database ${file} has schema version ${latest + 1}, newer than this ibwatch knows (${latest})`,
    );
    const after = new Database(file);
    try {
      expect(after.pragma('user_version', { simple: true })).toBe(latest + 1);
      expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual([
        'from_the_future',
      ]);
    } finally {
      after.close();
    }
  });
});
