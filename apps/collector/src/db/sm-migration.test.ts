import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-sm-migration-');
afterAll(tmp.cleanup);
const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));

describe('migration 0005 (sm_known)', () => {
  it('remembers every SM of the stored observations with its last state, and keeps the failover baseline', () => {
    const before = join(tmp.dir, 'before');
    mkdirSync(before);
    for (const m of listMigrations().filter((x) => x.version < 5))
      copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
    const db = new Database(join(tmp.dir, 'old.db'));
    try {
      migrate(db, before);
      const obs = db.prepare(
        'INSERT INTO sm_observations (scan_id, at, guid, lid, priority, state, activity_count, name) VALUES ' +
          '(?, ?, ?, ?, ?, ?, ?, ?)',
      );
      // Scan 1: A master, B standby. Scan 2: B stopped answering. Scan 3: no master at all.
      obs.run(1, 1000, '0xa', 1, 15, 'MASTER', '10', 'head-01');
      obs.run(1, 1000, '0xb', 7, 1, 'STANDBY', '5', 'head-02');
      obs.run(2, 2000, '0xa', 1, 15, 'MASTER', '20', 'head-01');
      obs.run(3, 3000, '0xa', 1, 15, 'STANDBY', '30', 'head-01');
      db.prepare(
        'INSERT INTO findings (kind, severity, subject_type, subject_key, title, first_seen, last_seen) VALUES ' +
          "('sm-standby-lost', 'major', 'sm', 'sm:0xb', 't', 2000, 2000)",
      ).run();
      migrate(db);
      expect(db.prepare('SELECT * FROM sm_known ORDER BY guid').all()).toEqual([
        {
          guid: '0xa',
          first_seen: 1000,
          last_seen: 3000,
          lid: 1,
          priority: 15,
          state: 'STANDBY',
          activity_count: '30',
          name: 'head-01',
          answering: 1,
        },
        {
          guid: '0xb',
          first_seen: 1000,
          last_seen: 1000,
          lid: 7,
          priority: 1,
          state: 'STANDBY',
          activity_count: '5',
          name: 'head-02',
          answering: 0,
        },
      ]);
      const setting = (k: string) => db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(k);
      expect(setting('sm.observed_at')).toBe('3000');
      expect(JSON.parse(setting('sm.last_master') as string)).toEqual({ guid: '0xa', at: 2000 });
      expect(db.prepare('SELECT kind FROM findings').pluck().all()).toEqual(['sm-not-seen']);
    } finally {
      db.close();
    }
  });
});
