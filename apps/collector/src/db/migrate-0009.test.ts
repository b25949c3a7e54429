// Migration 0009 (issue 14): a database written before it may hold a 50 MB node description,
// which made /api/topology fail; the migration gives it the cut new imports get.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate.ts';
import { openDb } from './open-db.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-0009-');
afterAll(tmp.cleanup);
const MIGRATIONS = join(import.meta.dirname, 'migrations');

describe('migration 0009', () => {
  it('cuts node descriptions stored before it to 128 characters and adds the drop-dir and owner columns', () => {
    const before = join(tmp.dir, 'before');
    mkdirSync(before);
    for (const m of listMigrations().filter((m) => m.version < 9))
      copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
    const file = join(tmp.dir, 'old.db');
    const old = new Database(file);
    migrate(old, before);
    const insert = old.prepare(
      "INSERT INTO nodes (guid, type, description, num_ports, first_seen, last_seen) VALUES (?, 'ca', ?, 1, 0, 0)",
    );
    insert.run('0x0000000000000001', 'x'.repeat(50 << 20));
    insert.run('0x0000000000000002', 'dgx-0042 mlx5_3');
    old.close();

    const db = openDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(listMigrations().at(-1)!.version);
      const rows = db.prepare('SELECT guid, length(description) AS n FROM nodes ORDER BY guid').all();
      expect(rows).toEqual([
        { guid: '0x0000000000000001', n: 128 },
        { guid: '0x0000000000000002', n: 15 },
      ]);
      expect(db.prepare('SELECT COUNT(*) FROM drop_dir_files').pluck().get()).toBe(0);
      expect(db.prepare("SELECT COUNT(*) FROM pragma_table_info('scans') WHERE name = 'owner'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
