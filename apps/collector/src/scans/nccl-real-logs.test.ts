// Issue 18.6 through the import path: a table pasted without its header stores a run whose
// collective was inferred, and the run's stored warnings (shown on its page) say so; an
// srun-prefixed log imports like the plain one.
import { afterAll, describe, expect, it } from 'vitest';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { ncclFixture, testContext } from '../test-support.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());

describe('importNccl() of logs as people paste them', () => {
  it('rows only: all_reduce inferred from busbw/algbw, said in the stored warnings', async () => {
    const name = 'all_reduce_perf.rows-only.good.txt';
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(name), { cluster: 'paste' }, name, 'cli');
    expect(scan.status).toBe('partial'); // no footer: a paste is marked cut short
    const stored = createNcclRepo(ctx.db).get(runId!)!;
    expect(stored.run.collective).toBe('all_reduce');
    expect(stored.warnings).toContain(
      `${name}:1: collective not named in the log: all_reduce inferred from busbw/algbw = 1.875, n = 16 ranks`,
    );
  });
  it('srun -l prefixes: the same headline as the plain log', async () => {
    const plain = await ctx.scans.importNccl(ncclFixture('all_reduce_perf.multinode.good.txt'), {}, 'a', 'cli');
    const srun = await ctx.scans.importNccl(ncclFixture('all_reduce_perf.srun-l.good.txt'), {}, 'b', 'cli');
    const repo = createNcclRepo(ctx.db);
    const [a, b] = [repo.get(plain.runId!)!, repo.get(srun.runId!)!];
    expect(b.run.hosts).toEqual(a.run.hosts);
    expect(b.run.peakBusbwGBs).toBe(a.run.peakBusbwGBs);
    expect(b.rows).toEqual(a.rows);
    expect(b.warnings).toEqual([]);
  });
});
