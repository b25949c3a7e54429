// Migration 0017 (issue 19): counter_deltas becomes a WITHOUT ROWID table keyed by (at, port_id,
// counter_id) without the (at) index. Rows stored before it must read back as they were.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createCounterHistory } from './counter-history.ts';
import { createCountersRepo } from './counters-repo.ts';
import { listMigrations, migrate } from './migrate.ts';
import { openDb } from './open-db.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-0017-');
afterAll(tmp.cleanup);
const MIGRATIONS = join(import.meta.dirname, 'migrations');
const T = 1_764_000_000_000;

/** A database at version 16 holding `rows` [port_id, counter_id, at, interval_s, delta, scan_id]. */
function oldDb(name: string, rows: number[][]): string {
  const before = join(tmp.dir, `${name}-migrations`);
  mkdirSync(before);
  for (const m of listMigrations().filter((m) => m.version < 17))
    copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
  const file = join(tmp.dir, `${name}.db`);
  const old = new Database(file);
  migrate(old, before);
  expect(old.pragma('user_version', { simple: true })).toBe(16);
  old.exec("INSERT INTO counter_names (id, name) VALUES (1, 'SymbolErrorCounter'), (2, 'LinkDownedCounter')");
  const insert = old.prepare(
    'INSERT INTO counter_deltas (port_id, counter_id, at, interval_s, delta, scan_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const r of rows) insert.run(...r);
  old.close();
  return file;
}

describe('migration 0017', () => {
  it('keeps every delta row, column for column, and reads them through the repositories', () => {
    const rows = [
      [7, 1, T, 60.137, 12, 101],
      [7, 2, T, 60.137, 1, 101],
      [3, 1, T, 60.002, 5, 101],
      [7, 1, T + 60_000, 59.998, 4, 102],
      [9, 1, T + 120_000, 0, 2, 103],
    ];
    const db = openDb(oldDb('keep', rows));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(listMigrations().at(-1)!.version);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = db
        // Seconds as before 0020, which stores milliseconds.
        .prepare('SELECT port_id, counter_id, at, interval_ms / 1000.0, delta, scan_id FROM counter_deltas')
        .raw()
        .all();
      expect(stored).toEqual([...rows].sort((a, b) => a[2]! - b[2]! || a[0]! - b[0]! || a[1]! - b[1]!));
      const withoutRowid = db.prepare("SELECT wr FROM pragma_table_list WHERE name = 'counter_deltas'").pluck().get();
      expect(withoutRowid).toBe(1);
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'counter_deltas' ORDER BY name")
        .pluck()
        .all();
      expect(indexes).toEqual(['counter_deltas_counter_at', 'counter_deltas_port_at']);

      const repo = createCountersRepo(db);
      expect(repo.deltas(7, T, T + 60_000)).toEqual([
        { at: T, counter: 'SymbolErrorCounter', delta: 12, intervalS: 60.137 },
        { at: T, counter: 'LinkDownedCounter', delta: 1, intervalS: 60.137 },
        { at: T + 60_000, counter: 'SymbolErrorCounter', delta: 4, intervalS: 59.998 },
      ]);
      expect(repo.portsWithDeltasSince(T + 60_000).sort()).toEqual([7, 9]);
      const points = JSON.parse(createCounterHistory(db).sweepJson(7, T, T)) as { counter: string; rate: number }[];
      expect(points.map((p) => [p.counter, p.rate])).toEqual([
        ['SymbolErrorCounter', 12 / 60.137],
        ['LinkDownedCounter', 1 / 60.137],
      ]);
      // A row with a zero interval has no rate, as before.
      expect(JSON.parse(createCounterHistory(db).sweepJson(9, T, T + 120_000))).toEqual([
        { at: T + 120_000, counter: 'SymbolErrorCounter', delta: 2, rate: 0 },
      ]);
      expect(repo.prune(T + 61_000 + 86_400_000, 1, 365)).toEqual({ deltas: 4, rollups: 0 });
      expect(db.prepare('SELECT COUNT(*) FROM counter_deltas').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('adds up two deltas of one port, counter and time instead of failing the upgrade', () => {
    const db = openDb(
      oldDb('twice', [
        [7, 1, T, 60, 12, 101],
        [7, 1, T, 60, 3, 101],
      ]),
    );
    try {
      expect(db.prepare('SELECT port_id, counter_id, at, delta FROM counter_deltas').raw().all()).toEqual([
        [7, 1, T, 15],
      ]);
      // And so does a new sweep that lists the same port twice.
      const repo = createCountersRepo(db);
      repo.addDelta(7, 'SymbolErrorCounter', T + 60_000, 60, 2n, 102);
      repo.addDelta(7, 'SymbolErrorCounter', T + 60_000, 60, 5n, 102);
      expect(repo.deltas(7, T + 60_000, T + 60_000)).toEqual([
        { at: T + 60_000, counter: 'SymbolErrorCounter', delta: 7, intervalS: 60 },
      ]);
      expect(repo.rollups(7, T + 60_000, T + 60_000)[0]?.delta).toBe(7);
    } finally {
      db.close();
    }
  });
});
