// Issue 14, defects 2 and 3, as the independent test saw them: the real server polling its nccl
// drop directory every 5 s. A dangling symlink stopped every round ("drop dir scan failed",
// nothing imported); a read-only directory had its file imported again every round (the move
// to imported/ failed with EROFS: 5 runs in 20 s).
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readOnlyDir } from '../../src/test-support.ts';
import { cleanupTemp, PARSER_FIXTURES, tempDir, TOKEN } from '../reliability/support.ts';
import { killAll, startServer } from './procs.ts';

const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
afterAll(() => {
  killAll();
  cleanupTemp();
});

/** A drop directory with `imported/` and `failed/` already there and a good output, 10 s old. */
function dropDir(name: string): { dir: string; db: string; drop: string } {
  const dir = tempDir(name);
  const drop = join(dir, 'drop');
  for (const d of [drop, join(drop, 'imported'), join(drop, 'failed')]) mkdirSync(d);
  const f = join(drop, 'job.out');
  writeFileSync(f, GOOD);
  const t = (Date.now() - 10_000) / 1000;
  utimesSync(f, t, t);
  return { dir, db: join(dir, 'ibwatch.db'), drop };
}

const env = (d: { dir: string; db: string; drop: string }) => ({
  IBWATCH_DB: d.db,
  IBWATCH_TOKEN: TOKEN,
  IBWATCH_NCCL_DROP_DIR: d.drop,
  IBWATCH_LAB_DIR: join(d.dir, 'nolab'),
  IBWATCH_WEB_DIST: join(d.dir, 'noweb'),
});

function runs(db: string): number {
  const check = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return check.prepare('SELECT COUNT(*) FROM nccl_runs').pluck().get() as number;
  } finally {
    check.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(ok: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) if (ok()) return true;
  return ok();
}

describe.concurrent('the server and its nccl drop directory', () => {
  it('2: a dangling symlink beside a good output does not stop the import', async () => {
    const d = dropDir('drop-dangling');
    // Sorted before job.out: the old scan stopped at it every round.
    symlinkSync(join(d.drop, 'gone'), join(d.drop, 'a-dangling.out'));
    const server = await startServer(env(d));
    try {
      const imported = await until(() => readdirSync(join(d.drop, 'imported')).includes('job.out'), 30_000);
      expect(imported, server.log.slice(-5).join('\n')).toBe(true);
      expect(runs(d.db)).toBe(1);
      expect(server.log.some((l) => /not a regular file \(symbolic link\)/.test(l))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('3: a read-only drop directory has its file imported once, not once a round', async () => {
    const d = dropDir('drop-read-only');
    const undo = readOnlyDir(d.drop);
    try {
      const server = await startServer(env(d));
      try {
        expect(await until(() => runs(d.db) >= 1, 30_000)).toBe(true);
        // Three more rounds of the 5-s poll.
        await sleep(16_000);
        expect(runs(d.db)).toBe(1);
        expect(readdirSync(d.drop)).toContain('job.out');
      } finally {
        await server.stop();
      }
    } finally {
      undo();
    }
  }, 120_000);
});
