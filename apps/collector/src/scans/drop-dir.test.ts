// The nccl drop directory with the REAL scan service and database: real nccl-tests outputs are
// dropped in, `tick()` is called directly (the interval is an hour, so it never fires on its
// own), and the file's fate is read back from the directory and the database.
import { existsSync, mkdirSync, readdirSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createScansRepo } from '../db/scans-repo.ts';
import { ncclFixture, testContext } from '../test-support.ts';
import { startDropDirWatcher } from './drop-dir.ts';

const ctx = testContext();
const drop = join(ctx.dir, 'drop');
const warns: { obj: unknown; msg?: string }[] = [];
const log = { info() {}, warn: (obj: unknown, msg?: string) => void warns.push({ obj, msg }) };
// Started on an empty directory: its first tick finds nothing and is over before this returns.
const watcher = startDropDirWatcher(drop, { scans: ctx.scans, db: ctx.db, log }, 3_600_000);
afterAll(() => {
  watcher.stop();
  ctx.cleanup();
});

const GOOD = 'all_reduce_perf.gdr-enabled.multinode.good.txt';
/** The good output made unique (a content is imported once): a comment line after the table. */
let jobs = 0;
const good = () => `${ncclFixture(GOOD)}# job ${++jobs}\n`;
const one = (sql: string) => ctx.db.prepare(sql).pluck().get() as number;
const runCount = () => one('SELECT COUNT(*) FROM nccl_runs');
const ncclScans = () => createScansRepo(ctx.db).list({ limit: 100, kind: 'import-nccl' });
const here = (sub = '') =>
  readdirSync(join(drop, sub))
    .filter((f) => f !== 'imported' && f !== 'failed')
    .sort();

/** Writes a file into the drop dir, last modified `ageMs` ago (old enough to be picked up by default). */
function put(name: string, text: string, ageMs = 10_000): string {
  const path = join(drop, name);
  writeFileSync(path, text);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(path, t, t);
  return path;
}

describe('startDropDirWatcher()', () => {
  it('creates imported/ and failed/ beside the dropped files', () => {
    expect(existsSync(join(drop, 'imported'))).toBe(true);
    expect(existsSync(join(drop, 'failed'))).toBe(true);
  });

  it('imports a good nccl-tests output once and moves it to imported/', async () => {
    const runs = runCount();
    put('job-1234.out', good());
    await watcher.tick();
    expect(here()).toEqual([]);
    expect(here('imported')).toEqual(['job-1234.out']);
    expect(runCount()).toBe(runs + 1);
    expect(ncclScans()[0]).toMatchObject({ kind: 'import-nccl', trigger: 'schedule', status: 'ok' });
    await watcher.tick();
    expect(runCount()).toBe(runs + 1);
  });

  it('two overlapping ticks import a file only once', async () => {
    const runs = runCount();
    put('job-1235.out', good());
    await Promise.all([watcher.tick(), watcher.tick()]);
    expect(runCount()).toBe(runs + 1);
    expect(here('imported')).toContain('job-1235.out');
  });

  it('keeps an output cut mid-table as a partial import in imported/', async () => {
    const runs = runCount();
    put('cut.out', ncclFixture('all_reduce_perf.cut-mid-table.bad.txt'));
    await watcher.tick();
    expect(here('imported')).toContain('cut.out');
    expect(runCount()).toBe(runs + 1);
    expect(ncclScans()[0]).toMatchObject({ status: 'partial' });
  });

  it('moves an unusable file to failed/ and records a failed scan naming it', async () => {
    const runs = runCount();
    put('garbage.out', ncclFixture('binary-garbage.bad.txt'));
    await watcher.tick();
    expect(here()).toEqual([]);
    expect(here('failed')).toEqual(['garbage.out']);
    expect(runCount()).toBe(runs);
    const scan = ncclScans()[0]!;
    expect(scan).toMatchObject({ status: 'failed', trigger: 'schedule' });
    expect(scan.error).toMatch(/^nccl-tests:garbage\.out:1: binary data/);
  });

  it('leaves a file modified in the last 2 s for a later tick', async () => {
    const runs = runCount();
    const path = put('still-writing.out', good(), 0);
    await watcher.tick();
    expect(here()).toEqual(['still-writing.out']);
    expect(runCount()).toBe(runs);
    const t = (Date.now() - 2500) / 1000; // the job finished writing
    utimesSync(path, t, t);
    await watcher.tick();
    expect(here()).toEqual([]);
    expect(here('imported')).toContain('still-writing.out');
    expect(runCount()).toBe(runs + 1);
  });

  it('moves a file over 64 MiB to failed/ without importing it', async () => {
    const runs = runCount();
    const scans = ncclScans().length;
    const path = put('huge.out', '');
    truncateSync(path, 64 * 1024 * 1024 + 1); // sparse: no 64 MiB written to the disk
    const t = (Date.now() - 10_000) / 1000;
    utimesSync(path, t, t);
    await watcher.tick();
    expect(here()).toEqual([]);
    expect(here('failed')).toContain('huge.out');
    expect(runCount()).toBe(runs);
    expect(ncclScans()).toHaveLength(scans);
    expect(warns.at(-1)).toMatchObject({
      msg: 'nccl drop file too large; moved to failed/',
      obj: { bytes: 64 * 1024 * 1024 + 1 },
    });
  });

  it('ignores dotfiles and subdirectories', async () => {
    const runs = runCount();
    put('.job-1236.out.swp', good());
    mkdirSync(join(drop, 'job-1237'));
    await watcher.tick();
    expect(here()).toEqual(['.job-1236.out.swp', 'job-1237']);
    expect(runCount()).toBe(runs);
  });

  it('keeps both files when a job drops the same name twice', async () => {
    const runs = runCount();
    put('nccl.out', good());
    await watcher.tick();
    put('nccl.out', ncclFixture('all_reduce_perf.gdr-disabled.multinode.good.txt'));
    await watcher.tick();
    expect(runCount()).toBe(runs + 2);
    expect(here('imported').filter((f) => f.startsWith('nccl.out'))).toEqual(['nccl.out', 'nccl.out.1']);
  });
});

describe('startDropDirWatcher() polling', () => {
  it('picks files up on its interval, and stop() ends the polling', async () => {
    const dir = join(ctx.dir, 'polled');
    const w = startDropDirWatcher(dir, { scans: ctx.scans, db: ctx.db, log }, 50);
    try {
      put('../polled/first.out', good());
      await vi.waitFor(() => expect(existsSync(join(dir, 'imported', 'first.out'))).toBe(true), {
        timeout: 5000,
        interval: 20,
      });
    } finally {
      w.stop();
    }
    put('../polled/second.out', good());
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(dir).sort()).toEqual(['failed', 'imported', 'second.out']);
  });
});
