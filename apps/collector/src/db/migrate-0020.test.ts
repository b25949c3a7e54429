// Migration 0020 (issue 19): a delta's interval is stored as whole milliseconds. Rows stored
// before it, and rows stored after it, must read back as the same seconds and the same rates.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createCounterHistory } from './counter-history.ts';
import { createCountersRepo, intervalMs } from './counters-repo.ts';
import { createMetricsRepo } from './metrics-repo.ts';
import { listMigrations, migrate } from './migrate.ts';
import { openDb } from './open-db.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-0020-');
afterAll(tmp.cleanup);
const MIGRATIONS = join(import.meta.dirname, 'migrations');
const T = 1_764_000_000_000;
// Seconds as a sweep measures them ((at - previous at) / 1000), a whole second, none, and one
// that is not a whole number of milliseconds (a tool's own interval could be).
const INTERVALS = [60.137, 59.998, (T + 60_001 - T) / 1000, 60, 0, 1.0005, 0.1 + 0.2];

/** A database at version `version` with the schema only. */
function oldDb(name: string, version: number): string {
  const before = join(tmp.dir, `${name}-migrations`);
  mkdirSync(before);
  for (const m of listMigrations().filter((m) => m.version <= version))
    copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
  const file = join(tmp.dir, `${name}.db`);
  const old = new Database(file);
  migrate(old, before);
  expect(old.pragma('user_version', { simple: true })).toBe(version);
  old.exec(
    `INSERT INTO counter_names (id, name) VALUES (1, 'SymbolErrorCounter');
     INSERT INTO nodes (guid, type, description, num_ports, first_seen, last_seen)
       VALUES ('0x1', 'CA', 'h1 HCA-1', 1, 0, 0);
     INSERT INTO ports (id, node_guid, port_num, first_seen, last_seen) VALUES (7, '0x1', 1, 0, 0);`,
  );
  old.close();
  return file;
}

/** What the readers give for port 7's deltas: the repository, the history's rates, /metrics'. */
function reads(db: Database.Database) {
  const last = createMetricsRepo(db).lastSweepDeltas();
  return {
    deltas: createCountersRepo(db).deltas(7, T, T + 3_600_000),
    history: createCounterHistory(db).sweepJson(7, T, T + 3_600_000),
    last: last.map((r) => [r.delta, r.intervalS]),
  };
}

/** The same reads with the SQL of before 0020 (interval_s in seconds), on a version-19 file. */
function readsBefore0020(db: Database.Database): ReturnType<typeof reads> {
  const rows = db
    .prepare(
      `SELECT d.at, n.name AS counter, d.delta, d.interval_s AS intervalS,
         CASE WHEN d.interval_s > 0 THEN d.delta / d.interval_s ELSE 0 END AS rate
       FROM counter_deltas d JOIN counter_names n ON n.id = d.counter_id WHERE d.port_id = 7 ORDER BY d.at`,
    )
    .all() as { at: number; counter: string; delta: number; intervalS: number; rate: number }[];
  const last = rows.at(-1)!;
  return {
    deltas: rows.map(({ at, counter, delta, intervalS }) => ({ at, counter, delta, intervalS })),
    history: JSON.stringify(rows.map(({ at, counter, delta, rate }) => ({ at, counter, delta, rate }))),
    last: [[last.delta, last.intervalS]],
  };
}

describe('migration 0020', () => {
  it('reads the same seconds and rates from upgraded rows as before the upgrade', () => {
    const file = oldDb('upgrade', 19);
    const old = new Database(file);
    const insert = old.prepare(
      'INSERT INTO counter_deltas (port_id, counter_id, at, interval_s, delta, scan_id) VALUES (7, 1, ?, ?, ?, 1)',
    );
    INTERVALS.forEach((s, k) => insert.run(T + k * 60_000, s, 12 + k));
    const before = readsBefore0020(old);
    old.close();
    expect(before.deltas.map((d) => d.intervalS)).toEqual(INTERVALS);
    const db = openDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(listMigrations().at(-1)!.version);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const after = reads(db);
      expect(after.deltas).toEqual(before.deltas);
      expect(JSON.parse(after.history)).toEqual(JSON.parse(before.history));
      expect(after.last).toEqual(before.last);
      // Whole milliseconds are integers now; the one that is not stays a REAL of milliseconds.
      const stored = db
        .prepare('SELECT interval_ms, typeof(interval_ms) FROM counter_deltas ORDER BY at')
        .raw()
        .all() as unknown[][];
      expect(stored.slice(0, 5)).toEqual([
        [60137, 'integer'],
        [59998, 'integer'],
        [60001, 'integer'],
        [60000, 'integer'],
        [0, 'integer'],
      ]);
      expect(stored[5]![1]).toBe('real');
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'counter_deltas' ORDER BY name")
        .pluck()
        .all();
      expect(indexes).toEqual(['counter_deltas_counter_at', 'counter_deltas_port_at']);
      expect(db.prepare("SELECT wr FROM pragma_table_list WHERE name = 'counter_deltas'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('stores new deltas in milliseconds and reads them back as the seconds given', () => {
    const db = openDb(oldDb('new', listMigrations().at(-1)!.version));
    try {
      const repo = createCountersRepo(db);
      INTERVALS.forEach((s, k) => repo.addDelta(7, 'SymbolErrorCounter', T + k * 60_000, s, BigInt(12 + k), 1));
      const got = reads(db);
      expect(got.deltas.map((d) => d.intervalS)).toEqual(INTERVALS);
      const rates = (JSON.parse(got.history) as { rate: number }[]).map((p) => p.rate);
      expect(rates).toEqual(INTERVALS.map((s, k) => (s > 0 ? (12 + k) / s : 0)));
      expect(got.last).toEqual([[12 + INTERVALS.length - 1, INTERVALS.at(-1)]]);
      expect(intervalMs(60.137)).toBe(60137);
      expect(intervalMs(1.0005)).not.toBe(Math.round(1.0005 * 1000));
    } finally {
      db.close();
    }
  });
});
