// Issue 14, defects 2 and 3, and the drop directory's side of defect 1: what it cannot read is
// skipped and the rest goes on; a content is imported once, even when the file cannot be moved
// (read-only directory); a busy database leaves the file for a later round.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ncclFixture, readOnlyDir, testContext } from '../test-support.ts';
import { startDropDirWatcher } from './drop-dir.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());
const GOOD = ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt');
let jobs = 0;
const good = () => `${GOOD}# job ${++jobs}\n`;
const runs = () => ctx.db.prepare('SELECT COUNT(*) FROM nccl_runs').pluck().get() as number;

function watch(name: string) {
  const dir = join(ctx.dir, name);
  mkdirSync(dir);
  const warns: string[] = [];
  const infos: string[] = [];
  const log = {
    info: (_o: unknown, m?: string) => void infos.push(m ?? ''),
    warn: (_o: unknown, m?: string) => void warns.push(m ?? ''),
  };
  const w = startDropDirWatcher(dir, { scans: ctx.scans, db: ctx.db, log }, 3_600_000);
  return { dir, warns, infos, tick: w.tick, stop: w.stop };
}

/** Writes `text` as `dir/name`, last modified 10 s ago (old enough to be taken). */
function put(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  const t = (Date.now() - 10_000) / 1000;
  utimesSync(path, t, t);
  return path;
}

describe('drop directory and files it cannot take', () => {
  it(
    'skips a dangling symlink, a FIFO, /dev/zero and a symlink to a good file with one warning each, and ' +
      'imports the rest',
    async () => {
      const d = watch('special');
      symlinkSync(join(d.dir, 'gone.out'), join(d.dir, 'dangling.out'));
      execFileSync('mkfifo', [join(d.dir, 'fifo.out')]);
      symlinkSync('/dev/zero', join(d.dir, 'zero.out'));
      const target = put(ctx.dir, 'elsewhere.out', good());
      symlinkSync(target, join(d.dir, 'link.out'));
      put(d.dir, 'job.out', good());
      const before = runs();
      await d.tick();
      expect(runs()).toBe(before + 1);
      expect(readdirSync(join(d.dir, 'imported'))).toEqual(['job.out']);
      expect(d.warns.sort()).toEqual([
        'nccl drop file is not a regular file (FIFO): skipped; copy the output in instead',
        'nccl drop file is not a regular file (symbolic link): skipped; copy the output in instead',
        'nccl drop file is not a regular file (symbolic link): skipped; copy the output in instead',
        'nccl drop file is not a regular file (symbolic link): skipped; copy the output in instead',
      ]);
      // Said once, not every round; a good file dropped later is still taken.
      put(d.dir, 'later.out', good());
      await d.tick();
      expect(d.warns).toHaveLength(4);
      expect(runs()).toBe(before + 2);
      d.stop();
    },
  );

  it('imports a file of a read-only directory once, however many rounds find it there', async () => {
    const d = watch('read-only');
    put(d.dir, 'job.out', good());
    const undo = readOnlyDir(d.dir);
    try {
      const before = runs();
      for (let i = 0; i < 5; i++) await d.tick();
      expect(runs()).toBe(before + 1);
      expect(readdirSync(d.dir).sort()).toEqual(['failed', 'imported', 'job.out']);
      expect(d.warns).toHaveLength(1);
      expect(d.warns[0]).toMatch(
        /^nccl drop file cannot be moved to imported\/ \(.*(EROFS|EACCES).*\); it stays, and is not imported again$/,
      );
      // A new watcher (a restart) knows the content too.
      const again = startDropDirWatcher(
        d.dir,
        { scans: ctx.scans, db: ctx.db, log: { info() {}, warn() {} } },
        3_600_000,
      );
      await again.tick();
      again.stop();
      expect(runs()).toBe(before + 1);
    } finally {
      undo();
      d.stop();
    }
  });

  it('does not import a content twice when it is dropped again under another name', async () => {
    const d = watch('again');
    const text = good();
    put(d.dir, 'first.out', text);
    await d.tick();
    const before = runs();
    put(d.dir, 'copy.out', text);
    await d.tick();
    expect(runs()).toBe(before);
    expect(readdirSync(join(d.dir, 'imported')).sort()).toEqual(['copy.out', 'first.out']);
    expect(d.infos).toContain('nccl drop file imported before');
  });

  it('leaves a file for a later round while another process holds the database, then imports it', async () => {
    const d = watch('busy');
    put(d.dir, 'job.out', good());
    const other = new Database(ctx.config.dbFile);
    ctx.db.pragma('busy_timeout = 100');
    const before = runs();
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      await d.tick();
      expect(runs()).toBe(before);
      expect(readdirSync(d.dir).sort()).toEqual(['failed', 'imported', 'job.out']);
      expect(d.warns.join('\n')).toMatch(/not stored \(.*database is locked\); tried again/);
      other.prepare('COMMIT').run();
      await d.tick();
      expect(runs()).toBe(before + 1);
      expect(readdirSync(join(d.dir, 'imported'))).toEqual(['job.out']);
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
      ctx.db.pragma('busy_timeout = 5000');
      d.stop();
    }
  });
});
