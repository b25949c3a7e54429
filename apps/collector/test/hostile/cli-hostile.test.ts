// `ibwatch import nccl` as a job script runs it, against hostile paths and labels and a
// database another process holds (issue 14, defects 1 and 5).
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemp, PARSER_FIXTURES, tempDir } from '../reliability/support.ts';
import { killAll, runCli } from './procs.ts';

const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
const dir = tempDir('cli-hostile');
const env = { IBWATCH_DB: join(dir, 'ibwatch.db'), IBWATCH_SOURCE: 'import-only', IBWATCH_LAB_DIR: join(dir, 'nolab') };
afterAll(() => {
  killAll();
  cleanupTemp();
});

// Each run starts node + tsx: a few seconds on a loaded 2-core machine.
describe('ibwatch import nccl with hostile input', { timeout: 90_000 }, () => {
  it('refuses a FIFO and a symlink to /dev/zero at once, saying what they are (exit 1)', async () => {
    const fifo = join(dir, 'job.fifo');
    execFileSync('mkfifo', [fifo]);
    const zero = join(dir, 'zero.out');
    symlinkSync('/dev/zero', zero);
    const [a, b] = await Promise.all([runCli(['import', 'nccl', fifo], env), runCli(['import', 'nccl', zero], env)]);
    expect([a.code, b.code]).toEqual([1, 1]);
    expect(a.stderr).toContain(`ibwatch: nccl-tests:${fifo}: not a regular file (FIFO); refused`);
    expect(b.stderr).toContain(`ibwatch: nccl-tests:${zero}: not a regular file (character device); refused`);
  });

  it(
    'checks labels as the API does: a typo, a non-number and an over-long value are usage errors (exit ' + '2)',
    async () => {
      const f = join(dir, 'good.out');
      writeFileSync(f, GOOD);
      const runs = await Promise.all(
        [['clusterr=a'], ['nodes=two'], [`cluster=${'c'.repeat(101)}`], ['hcaCount=1001']].map((l) =>
          runCli(['import', 'nccl', f, '--label', l[0]!], env),
        ),
      );
      expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
      expect(runs[0]!.stderr).toMatch(/bad label "clusterr=a"/);
      expect(runs[1]!.stderr).toMatch(/bad label nodes="two": expected an integer from 1 to 100000/);
      expect(runs[2]!.stderr).toMatch(/bad label cluster: at most 100 characters, got 101/);
      expect(runs[3]!.stderr).toMatch(/bad label hcaCount="1001": expected an integer from 0 to 1000/);
    },
  );

  it('waits for a database another process holds, and stores the run once it is free', async () => {
    const f = join(dir, 'wait.out');
    writeFileSync(f, `${GOOD}# waited\n`);
    // The database exists and is up to date before the lock is taken.
    expect((await runCli(['nccl', '--json'], env)).code).toBe(0);
    const other = new Database(env.IBWATCH_DB);
    other.prepare('BEGIN IMMEDIATE').run();
    const cli = runCli(['import', 'nccl', f, '--json'], env);
    // Held for 3 s: longer than the server's 5-s busy timeout would matter for, shorter than the CLI's.
    await new Promise((r) => setTimeout(r, 3000));
    other.prepare('COMMIT').run();
    other.close();
    const r = await cli;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scan: { status: 'ok' }, runId: expect.any(Number) });
  });
});
