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
// The real 2 x 8 H100 run: 338.82 GB/s at 8 GiB, under the 360 GB/s target (a fail).
const SLOW = 'all_reduce_perf.multinode.good.txt';
const ROW = /^\s+\d+\s+\d+\s+float/;

/** The fixture with its result rows' cells rewritten (5-7 and 9-11 are time, algbw, busbw). */
function editRows(name: string, edit: (cells: string[], size: number) => string[][] | null): string {
  return ncclFixture(name)
    .split('\n')
    .flatMap((l) => {
      if (!ROW.test(l)) return [l];
      const cells = l.trim().split(/\s+/);
      return (edit(cells, Number(cells[0])) ?? [cells]).map((c) => `  ${c.join('  ')}`);
    })
    .join('\n');
}
const set = (cells: string[], cols: number[], v: string) => cells.map((c, i) => (cols.includes(i) ? v : c));
const TIMING = [5, 6, 7, 9, 10, 11];
const BUSBW = [7, 11];
const GIB8 = 2 ** 33;

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

  // Issue 14 defect 7: numbers that are not measurements.
  it('refuses a log whose every number is 1e309 instead of storing an Infinity pass', async () => {
    const before = runCount();
    const text = editRows(SLOW, (c) => [set(c, TIMING, '1e309')]).replace('70.742', '1e309');
    const { scan, runId } = await ctx.scans.importNccl(text, { cluster: 'inf' }, 'inf.txt', 'api');
    expect(runId).toBeNull();
    expect(scan.error).toMatch(
      /^nccl-tests:inf\.txt:32: no plausible result rows; out-of-place time Infinity is not a finite number/,
    );
    expect(runCount()).toBe(before);
  });

  it('refuses an all-negative log instead of storing a run with 0 rows', async () => {
    const before = runCount();
    const { scan, runId } = await ctx.scans.importNccl(
      editRows(SLOW, (c) => [set(c, TIMING, '-1.5')]),
      { cluster: 'neg' },
      'neg.txt',
      'api',
    );
    expect(runId).toBeNull();
    expect(scan.error).toMatch(
      /^nccl-tests:neg\.txt:32: no plausible result rows; out-of-place time -1\.5 is negative/,
    );
    expect(runCount()).toBe(before);
  });

  it.each(['1e308', '999999'])('does not pass a slow run whose 8 GiB busbw reads %s', async (value) => {
    const text = editRows(SLOW, (c, size) => (size === GIB8 ? [set(c, BUSBW, value)] : null));
    const { scan, runId } = await ctx.scans.importNccl(text, { cluster: `big-${value}` }, 'big.txt', 'api');
    const run = nccl.get(runId!)!.run;
    expect(run).toMatchObject({ verdict: 'fail', peakBusbwGBs: 330.58, peakSizeBytes: 2 ** 32, importWarnings: 2 });
    expect(scan.status).toBe('partial');
    expect(scan.warnings[0]).toMatch(
      new RegExp(`^big\\.txt:62: out-of-place busbw ${value === '1e308' ? '1e\\+308' : value} GB/s is above 4000 GB/s`),
    );
  });

  it('keeps the first of a repeated 8 GiB row: a 999.99 copy does not flip a fail into a pass', async () => {
    const text = editRows(SLOW, (c, size) => (size === GIB8 ? [c, set(c, BUSBW, '999.99')] : null));
    const { scan, runId } = await ctx.scans.importNccl(text, { cluster: 'dup' }, 'dup.txt', 'api');
    expect(nccl.get(runId!)!.run).toMatchObject({ verdict: 'fail', peakBusbwGBs: 338.82 });
    expect(scan.warnings).toEqual([
      'dup.txt:63: size 8589934592 (float sum) appears again; keeping the first (line 62), this row dropped',
    ]);
  });

  it('does not call normal runs regressions after runs stored as Infinity by an older version', async () => {
    const labels = { cluster: 'after-inf' };
    const { runId: first } = await ctx.scans.importNccl(ncclFixture(GDR_ON), labels, GDR_ON, 'api');
    // What the old import stored for an all-1e309 log; migration 0006 sets these to NULL.
    for (let i = 0; i < 3; i++) {
      ctx.db
        .prepare(
          `INSERT INTO nccl_runs (created_at, at, started_at, finished_at, collective, labels, gdr, verdict, peak_busbw)
           SELECT created_at, at - ? - 1, started_at, finished_at, collective, labels, gdr, 'pass', ? FROM
           nccl_runs WHERE id = ?`,
        )
        .run(i, Number.POSITIVE_INFINITY, first);
    }
    const { runId } = await ctx.scans.importNccl(ncclFixture(GDR_ON), labels, GDR_ON, 'api');
    expect(nccl.get(runId!)!.run).toMatchObject({ verdict: 'pass', regression: false });
  });

  // Issue 13 item 6: labels that contradict the log.
  it('judges a one-host A100 log labelled nodes=2 as the single-node run it is, against no H100 target', async () => {
    const name = 'all_reduce_perf.legacy-format.good.txt';
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(name), { nodes: 2, gpuModel: 'H100' }, name, 'api');
    const run = nccl.get(runId!)!.run;
    expect(run).toMatchObject({
      nodes: 1,
      scope: 'single-node',
      gpuModel: 'A100-SXM4-40GB',
      gpusPerNode: 8,
      targetGBs: null,
      targetNote:
        'no single-node (NVLink) target for all_reduce on this hardware: A100-SXM4-40GB, 8x per node, ' +
        'NICs not in the log',
      verdict: 'unknown',
      labels: { nodes: 1 },
    });
    expect(scan.warnings).toEqual([
      `${name}: label nodes=2 contradicts the log: its rank lines name 1 host (localhost); judged as 1 node`,
      `${name}: label gpuModel=H100 contradicts the log: its GPUs are A100-SXM4-40GB`,
    ]);
  });

  it('has no target for a run whose node count neither the log nor a label gives', async () => {
    const name = 'all_reduce_perf.gdr-enabled.multinode.good.txt';
    const noRanks = ncclFixture(name)
      .split('\n')
      .filter((l) => !/^#\s+Rank\s/.test(l))
      .join('\n');
    const { runId } = await ctx.scans.importNccl(noRanks, {}, name, 'api');
    expect(nccl.get(runId!)!.run).toMatchObject({ nodes: null, scope: null, targetGBs: null, verdict: 'unknown' });
  });

  // Issue 13 item 6: backdating.
  it('dates a run by the startedAt it was given and takes its baseline from the runs before it', async () => {
    const labels = { cluster: 'backdated' };
    const day = 86_400_000;
    const now = Date.now();
    for (const d of [10, 9, 8]) {
      await ctx.scans.importNccl(ncclFixture(GDR_ON), labels, GDR_ON, 'cli', { startedAt: now - d * day });
    }
    // Imported last but run before the three good ones: no baseline yet, so no regression.
    const { runId } = await ctx.scans.importNccl(ncclFixture(GDR_OFF), labels, GDR_OFF, 'cli', {
      startedAt: now - 20 * day,
    });
    const run = nccl.get(runId!)!.run;
    expect(run).toMatchObject({ at: now - 20 * day, startedAt: now - 20 * day, regression: false });
    expect(nccl.list({ from: now - 21 * day, to: now - 19 * day, limit: 10 }).map((r) => r.id)).toEqual([runId]);
  });

  it('fails an import whose window cannot be, naming the fields', async () => {
    const { scan, runId } = await ctx.scans.importNccl(ncclFixture(GDR_ON), {}, 'w.txt', 'cli', {
      startedAt: Date.now(),
      finishedAt: Date.now() - 60_000,
    });
    expect(runId).toBeNull();
    expect(scan.error).toMatch(/^w\.txt: startedAt .* is after finishedAt/);
  });
});
