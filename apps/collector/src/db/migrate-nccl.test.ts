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

/** Migrations up to (not including) `version`, in a directory of their own. */
function migrationsBefore(version: number): string {
  const dir = join(tmp.dir, `before-${version}`);
  mkdirSync(dir, { recursive: true });
  for (const m of listMigrations().filter((x) => x.version < version))
    copyFileSync(join(MIGRATIONS, m.name), join(dir, m.name));
  return dir;
}

describe('migration 0006 (nccl headline)', () => {
  it('fills in the time, node count and headline of runs stored before it', () => {
    const db = oldDatabase();
    try {
      // Up to 0021: 0022 changes the headline again (tested below).
      expect(migrate(db, migrationsBefore(22))).toContain(6);
      const run = (id: number) => {
        const r = db.prepare('SELECT * FROM nccl_runs WHERE id = ?').get(id) as Record<string, unknown> & {
          warnings: string;
        };
        return { ...r, importWarnings: (JSON.parse(r.warnings) as string[]).length };
      };
      expect(run(1)).toMatchObject({
        at: T,
        nodes: 2,
        peak_busbw: null,
        peak_size: null,
        avg_busbw: null,
        verdict: 'unknown',
        regression: 0,
        importWarnings: 1,
      });
      expect(run(1).warnings).toBe('["x.txt:40: a warning"]');
      expect(run(2)).toMatchObject({
        at: T - 48 * HOUR,
        peak_busbw: 338.82,
        peak_size: GIB8,
        avg_busbw: 70.742,
        verdict: 'fail',
        regression: 1,
        importWarnings: 0,
      });
      expect(run(3)).toMatchObject({ at: T - 4 * HOUR, peak_busbw: 72.3, verdict: 'host-memory-fallback' });
      expect(run(4)).toMatchObject({ nodes: 1, peak_busbw: 3, peak_size: 1 << 24 });
      const between = db
        .prepare('SELECT id FROM nccl_runs WHERE at BETWEEN ? AND ?')
        .all(T - 49 * HOUR, T - 47 * HOUR) as { id: number }[];
      expect(between.map((r) => r.id)).toEqual([2]);
    } finally {
      db.close();
    }
  });
});

describe('migration 0022 (targets by hardware, peak headline)', () => {
  /** A database at 0021 with runs as the import before 0022 judged them (all against 8x H100). */
  function at21(): Database.Database {
    const db = new Database(join(tmp.dir, 'at21.db'));
    migrate(db, migrationsBefore(22));
    const run = db.prepare(
      `INSERT INTO nccl_runs (id, created_at, at, started_at, finished_at, collective, labels, hosts, nodes, ranks,
         gdr, peak_busbw, peak_size, target, verdict, regression)
       VALUES (@id, @t, @t, @t, @t, 'all_reduce', @labels, @hosts, 2, @ranks, @gdr, @peak, @size, 360, @verdict,
         @regression)`,
    );
    const row = db.prepare(
      'INSERT INTO nccl_results (run_id, size_bytes, type, oop_busbw, ip_busbw) VALUES (?, ?, ?, ?, ?)',
    );
    const two = JSON.stringify(['dgx-1', 'dgx-2']);
    const h100 = JSON.stringify({ gpuModel: 'H100', nodes: 2 });
    // 1: an H100 run in the band, called a host-memory fallback with GDR unknown; it peaked at 256 MiB.
    run.run({
      id: 1,
      t: T,
      labels: h100,
      hosts: two,
      ranks: 16,
      gdr: 'unknown',
      peak: 352,
      size: GIB8,
      verdict: 'host-memory-fallback',
      regression: 0,
    });
    row.run(1, 2 ** 28, 'float', 371, 370);
    row.run(1, GIB8, 'float', 352, 350);
    // 2: a header-less paste (no rank lines, 0 ranks) failed against the H100 target.
    run.run({
      id: 2,
      t: T,
      labels: '{"nodes":2}',
      hosts: '[]',
      ranks: 0,
      gdr: 'enabled',
      peak: 90,
      size: GIB8,
      verdict: 'fail',
      regression: 0,
    });
    row.run(2, GIB8, 'float', 90, 88);
    // 3: GDR off from the log's lines, and a regression.
    run.run({
      id: 3,
      t: T,
      labels: h100,
      hosts: two,
      ranks: 16,
      gdr: 'disabled',
      peak: 72,
      size: GIB8,
      verdict: 'host-memory-fallback',
      regression: 1,
    });
    row.run(3, GIB8, 'float', 72, 71);
    return db;
  }

  it('keeps H100 targets under their profile, drops unknown hardware targets, keeps only evidenced causes', () => {
    const db = at21();
    try {
      expect(migrate(db, MIGRATIONS)).toContain(22);
      const repo = createNcclRepo(db as never);
      expect(repo.get(1)!.run).toMatchObject({
        peakBusbwGBs: 371,
        peakSizeBytes: 2 ** 28,
        largestBusbwGBs: 352,
        largestSizeBytes: GIB8,
        gpuModel: 'H100',
        gpusPerNode: 8,
        targetGBs: 360,
        targetProfile: '8x H100, 8x400G',
        verdict: 'pass',
        flags: ['gdr-unknown'],
      });
      expect(repo.get(2)!.run).toMatchObject({
        ranks: null,
        gpuModel: null,
        targetGBs: null,
        verdict: 'unknown',
        flags: [],
      });
      expect(repo.get(2)!.run.targetNote).toBe(
        'no target for this hardware: the log has no rank lines (GPU model and GPUs per node unknown)',
      );
      expect(repo.get(3)!.run).toMatchObject({
        verdict: 'host-memory-fallback',
        flags: ['regression', 'gdr-off'],
        targetProfile: '8x H100, 8x400G',
      });
    } finally {
      db.close();
    }
  });
});
