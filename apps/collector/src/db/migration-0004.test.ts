import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-m0004-');
afterAll(tmp.cleanup);
const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));

describe('migration 0004 (finding cleared_at)', () => {
  it('clears findings that were counting clean sweeps as of their last sighting, and resolved ones', () => {
    const before = join(tmp.dir, 'v3');
    mkdirSync(before);
    for (const m of listMigrations().filter((x) => x.version <= 3))
      copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
    const db = new Database(join(tmp.dir, 'old.db'));
    try {
      expect(migrate(db, before)).toEqual([1, 2, 3]);
      const add = db.prepare(
        `INSERT INTO findings (kind, severity, state, subject_type, subject_key, title, first_seen, last_seen,
        resolved_at, clean_sweeps)
         VALUES (?, 'major', ?, 'port', ?, 't', 100, ?, ?, ?)`,
      );
      add.run('symbol-errors', 'open', 'port:still', 500, null, 0);
      add.run('symbol-errors', 'open', 'port:quiet', 400, null, 3);
      add.run('link-down', 'resolved', 'port:old', 300, 350, 10);
      migrate(db);
      const rows = db.prepare('SELECT subject_key AS k, cleared_at AS c FROM findings ORDER BY id').all();
      expect(rows).toEqual([
        { k: 'port:still', c: null },
        { k: 'port:quiet', c: 400 },
        { k: 'port:old', c: 350 },
      ]);
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT id FROM findings WHERE cleared_at IS NULL AND subject_type = 'port'")
        .all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('findings_current');
    } finally {
      db.close();
    }
  });
});
