import { afterAll, describe, expect, it } from 'vitest';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { ncclFixture, testContext } from '../test-support.ts';

const ctx = testContext();
const nccl = createNcclRepo(ctx.db);
const findings = createFindingsRepo(ctx.db);
const runCount = () => ctx.db.prepare('SELECT COUNT(*) FROM nccl_runs').pluck().get() as number;
afterAll(() => ctx.cleanup());

const GDR_OFF = 'all_reduce_perf.gdr-disabled.multinode.good.txt';
const GDR_ON = 'all_reduce_perf.gdr-enabled.multinode.good.txt';

describe('importNccl()', () => {
  it('judges a multi-node run without GPUDirect RDMA as a host-memory fallback and opens a finding', async () => {
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(GDR_OFF), { cluster: 'gdr-off' }, GDR_OFF, 'api');
    expect(scan).toMatchObject({
      kind: 'import-nccl',
      status: 'ok',
      summary: { verdict: 'host-memory-fallback', gdr: 'disabled', collective: 'all_reduce' },
    });
    const run = nccl.get(runId!)!;
    expect(run.run).toMatchObject({
      verdict: 'host-memory-fallback',
      gdr: 'disabled',
      hosts: expect.any(Array),
      regression: false,
      truncated: false,
    });
    expect(run.run.peakBusbwGBs).toBeCloseTo(72.3, 0);
    expect(run.gdrEvidence.some((e) => /via NET\/IB\/\d+$/.test(e))).toBe(true);
    expect(run.rows.length).toBe(scan.summary.rows);
    const own = findings.list({ subjectKeyPrefix: `run:${runId}`, limit: 10 });
    expect(own.map((f) => f.kind)).toContain('nccl-host-memory');
    expect(own.find((f) => f.kind === 'nccl-host-memory')!.title).toMatch(new RegExp(`^Run #${runId}: `));
  });

  it('passes a GPUDirect run at ~380 GB/s against the 2-node all_reduce target', async () => {
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(GDR_ON), { cluster: 'gdr-on' }, GDR_ON, 'cli');
    expect(scan.status).toBe('ok');
    const run = nccl.get(runId!)!.run;
    expect(run).toMatchObject({ verdict: 'pass', gdr: 'enabled', labels: { cluster: 'gdr-on', nodes: 2 } });
    expect(run.peakBusbwGBs!).toBeGreaterThan(370);
    expect(run.peakBusbwGBs!).toBeLessThan(400);
    expect(findings.list({ subjectKeyPrefix: `run:${runId}`, limit: 10 })).toEqual([]);
  });

  it('stores the complete rows of an output cut mid-table as a partial scan', async () => {
    const name = 'all_reduce_perf.cut-mid-table.bad.txt';
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(name), { cluster: 'cut' }, name, 'api');
    expect(scan.status).toBe('partial');
    expect(scan.warnings.join('\n')).toContain(`${name}:78:`);
    expect(scan.error).toContain('cut short');
    const run = nccl.get(runId!)!;
    expect(run.run.truncated).toBe(true);
    expect(run.rows).toHaveLength(27);
  });

  it.each([
    ['empty.bad.txt', /^nccl-tests:empty\.bad\.txt: empty input$/],
    ['binary-garbage.bad.txt', /^nccl-tests:binary-garbage\.bad\.txt:1: binary data/],
    ['header-only.bad.txt', /^nccl-tests:header-only\.bad\.txt:30: table header without result rows/],
  ])('fails %s naming the file and line, storing no run', async (name, message) => {
    const before = runCount();
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(name), {}, name, 'api');
    expect(runId).toBeNull();
    expect(scan.status).toBe('failed');
    expect(scan.error).toMatch(message);
    expect(runCount()).toBe(before);
  });

  it('flags a regression against a baseline of 3 good runs with the same labels', async () => {
    const labels = { cluster: 'baseline', gpuModel: 'H100' };
    for (let i = 0; i < 3; i++) {
      const { runId } = await ctx.scans.importNccl(ncclFixture(GDR_ON), labels, GDR_ON, 'api');
      expect(nccl.get(runId!)!.run.regression).toBe(false);
    }
    // Same labels given in another key order: still the same baseline.
    const { scan, runId } = await ctx.scans.importNccl(
      ncclFixture(GDR_OFF),
      { gpuModel: 'H100', cluster: 'baseline' },
      GDR_OFF,
      'api',
    );
    expect(nccl.get(runId!)!.run.regression).toBe(true);
    expect(scan.summary.verdict).toBe('host-memory-fallback');
    const kinds = findings.list({ subjectKeyPrefix: `run:${runId}`, limit: 10 }).map((f) => f.kind);
    expect(kinds).toContain('nccl-regression');
  });

  it('does not flag a regression for a slow run whose labels differ from the baseline', async () => {
    const { runId } = await ctx.scans.importNccl(ncclFixture(GDR_OFF), { cluster: 'other' }, GDR_OFF, 'api');
    expect(nccl.get(runId!)!.run.regression).toBe(false);
  });
});
