// Migration 0006 on nccl runs stored by the versions before it: their time, node count and
// headline are filled in, and the Infinity runs of issue 14 lose their pass.
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate.ts';
import { createNcclRepo } from './nccl-repo.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-nccl-');
afterAll(tmp.cleanup);

const MIGRATIONS = join(import.meta.dirname, 'migrations');
const HOUR = 3_600_000;
const T = Date.parse('2026-06-01T12:00:00Z');
const GIB8 = 2 ** 33;

/** A database at the schema before 0006, with runs as the old import wrote them. */
function oldDatabase(): Database.Database {
  const before = join(tmp.dir, 'before');
  mkdirSync(before, { recursive: true });
  for (const m of listMigrations().filter((x) => x.version < 6))
    copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
  const db = new Database(join(tmp.dir, 'old.db'));
  migrate(db, before);
  const scan = db
    .prepare(
      `INSERT INTO scans (kind, trigger, status, started_at, warnings) VALUES ('import-nccl', 'api', 'partial', ?, ?)`,
    )
    .run(T, JSON.stringify(['x.txt:40: a warning']));
  const run = db.prepare(
    `INSERT INTO nccl_runs (id, created_at, started_at, finished_at, scan_id, collective, labels, hosts, gdr, avg_busbw,
       peak_busbw, target, verdict, regression)
     VALUES (@id, @created, @started, @finished, @scan, 'all_reduce', @labels, @hosts, 'enabled', @avg, @peak,
     @target, @verdict, @regression)`,
  );
  const row = db.prepare(
    'INSERT INTO nccl_results (run_id, size_bytes, type, oop_busbw, ip_busbw) VALUES (?, ?, ?, ?, ?)',
  );
  const two = JSON.stringify(['dgx-1', 'dgx-2']);
  // 1: an all-1e309 log stored as a pass; no window given (the hour before its import).
  run.run({
    id: 1,
    created: T,
    started: T - HOUR,
    finished: T,
    scan: scan.lastInsertRowid,
    labels: '{"nodes":2}',
    hosts: two,
    avg: Infinity,
    peak: Infinity,
    target: 360,
    verdict: 'pass',
    regression: 0,
  });
  for (const size of [8, GIB8]) row.run(1, size, 'float', Infinity, Infinity);
  // 2: a slow run whose 1 KiB row was faster than its 8 GiB one; uploaded with startedAt.
  run.run({
    id: 2,
    created: T,
    started: T - 48 * HOUR,
    finished: T,
    scan: null,
    labels: '{"nodes":2}',
    hosts: two,
    avg: 70.742,
    peak: 400,
    target: 360,
    verdict: 'pass',
    regression: 1,
  });
  row.run(2, 1024, 'float', 400, 12);
  row.run(2, GIB8 / 2, 'float', 330.58, 330.51);
  row.run(2, GIB8, 'float', 338.82, 337.35);
  // 3: a host-memory fallback, dated by its finishedAt.
  run.run({
    id: 3,
    created: T,
    started: T - 5 * HOUR,
    finished: T - 4 * HOUR,
    scan: null,
    labels: '{"nodes":2}',
    hosts: two,
    avg: 20,
    peak: 72.5,
    target: 360,
    verdict: 'host-memory-fallback',
    regression: 0,
  });
  row.run(3, GIB8, 'float', 72.3, null);
  // 4: a one-host log labelled nodes=2, without rows at 1 GiB.
  run.run({
    id: 4,
    created: T,
    started: T - HOUR,
    finished: T,
    scan: null,
    labels: '{"nodes":2}',
    hosts: '["localhost"]',
    avg: 1,
    peak: 5,
    target: 360,
    verdict: 'fail',
    regression: 0,
  });
  row.run(4, 1 << 20, 'float', 5, 4);
  row.run(4, 1 << 24, 'float', 3, 2);
  return db;
}

describe('migration 0006 (nccl headline)', () => {
  it('fills in the time, node count and headline of runs stored before it', () => {
    const db = oldDatabase();
    try {
      expect(migrate(db, MIGRATIONS)).toContain(6);
      const repo = createNcclRepo(db as never);
      const run = (id: number) => repo.get(id)!.run;
      expect(run(1)).toMatchObject({
        at: T,
        nodes: 2,
        peakBusbwGBs: null,
        peakSizeBytes: null,
        avgBusbwGBs: null,
        verdict: 'unknown',
        regression: false,
        importWarnings: 1,
      });
      expect(repo.get(1)!.warnings).toEqual(['x.txt:40: a warning']);
      expect(run(2)).toMatchObject({
        at: T - 48 * HOUR,
        peakBusbwGBs: 338.82,
        peakSizeBytes: GIB8,
        avgBusbwGBs: 70.742,
        verdict: 'fail',
        regression: true,
        importWarnings: 0,
      });
      expect(run(3)).toMatchObject({ at: T - 4 * HOUR, peakBusbwGBs: 72.3, verdict: 'host-memory-fallback' });
      expect(run(4)).toMatchObject({ nodes: 1, scope: 'single-node', peakBusbwGBs: 3, peakSizeBytes: 1 << 24 });
      expect(repo.list({ from: T - 49 * HOUR, to: T - 47 * HOUR, limit: 10 }).map((r) => r.id)).toEqual([2]);
    } finally {
      db.close();
    }
  });
});
