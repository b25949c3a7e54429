// Issue 33 items 3-5 through the import path: the target follows the hardware the log names,
// a cause is named only from the log's own lines, and the headline is the peak with its size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_LABELS, demoHistoryPlan, NCCL_FIXTURES } from '@ibwatch/lab';
import { afterAll, describe, expect, it } from 'vitest';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { ncclFixture, testContext } from '../test-support.ts';

const ctx = testContext();
const mine = testContext({ IBWATCH_NCCL_TARGETS: 'MI300X:1:1x400' });
afterAll(() => {
  ctx.cleanup();
  mine.cleanup();
});
const A100 = 'all_reduce_perf.a100-hdr200-sharp.good.txt';
const AMD = 'all_reduce_perf.rccl-one-gpu-per-node.good.txt';
const GDR_OFF = 'all_reduce_perf.gdr-disabled.multinode.good.txt';

async function imported(c: typeof ctx, text: string, name: string) {
  const { runId } = await c.scans.importNccl(text, { cluster: name }, name, 'api');
  return createNcclRepo(c.db).get(runId!)!.run;
}

describe('targets follow the hardware', () => {
  it('passes the healthy 4 x 8 A100 run with 4 HDR200 NICs and SHARP against its 90 GB/s profile', async () => {
    const run = await imported(ctx, ncclFixture(A100), A100);
    expect(run).toMatchObject({
      nodes: 4,
      ranks: 32,
      gpuModel: 'NVIDIA A100-SXM4-80GB',
      gpusPerNode: 8,
      nicsPerNode: 4,
      targetGBs: 90,
      targetProfile: '8x A100, 4x200G',
      gdr: 'enabled',
      verdict: 'pass',
      flags: [],
    });
  });

  it('gives the one-MI300X-per-node run no target, no FAIL, until IBWATCH_NCCL_TARGETS names it', async () => {
    const run = await imported(ctx, ncclFixture(AMD), AMD);
    expect(run).toMatchObject({ nodes: 2, gpusPerNode: 1, targetGBs: null, verdict: 'unknown', flags: [] });
    expect(run.targetNote).toBe(
      'no target for this hardware: AMD Instinct MI300X, 1x per node, NICs not in the log; ' +
        'set IBWATCH_NCCL_TARGETS to judge',
    );
    const judged = await imported(mine, ncclFixture(AMD), AMD);
    expect(judged).toMatchObject({ targetGBs: 45, targetProfile: '1x MI300X, 1x400G', verdict: 'pass' });
  });
});

describe('causes only from evidence', () => {
  it('names the host-memory fallback from GDR-disabled lines (major finding)', async () => {
    const run = await imported(ctx, ncclFixture(GDR_OFF), 'gdr-off');
    expect(run).toMatchObject({ verdict: 'host-memory-fallback', gdr: 'disabled', flags: ['gdr-off'] });
    const f = createFindingsRepo(ctx.db).list({ subjectKeyPrefix: `run:${run.id}`, limit: 10 });
    expect(f.map((x) => [x.kind, x.severity])).toContainEqual(['nccl-host-memory', 'major']);
  });

  it('says "GDR state unknown" (minor) for the same band without NCCL_DEBUG lines, never fallback', async () => {
    const noDebug = ncclFixture(GDR_OFF)
      .split('\n')
      .filter((l) => !/NCCL (INFO|WARN)|^NCCL version/.test(l))
      .join('\n');
    const run = await imported(ctx, noDebug, 'no-debug');
    expect(run).toMatchObject({ verdict: 'fail', gdr: 'unknown', flags: ['gdr-unknown'] });
    const f = createFindingsRepo(ctx.db).list({ subjectKeyPrefix: `run:${run.id}`, limit: 10 });
    expect(f.map((x) => x.kind).sort()).toEqual(['nccl-below-target', 'nccl-gdr-unknown']);
    expect(f.find((x) => x.kind === 'nccl-gdr-unknown')).toMatchObject({ severity: 'minor' });
    expect(f.find((x) => x.kind === 'nccl-gdr-unknown')!.title).toMatch(
      /in the host-staging band \(50-100 GB\/s\); GDR state unknown: rerun with NCCL_DEBUG=INFO$/,
    );
  });
});

describe('the headline', () => {
  it('is the peak busbw and its size, with the largest size beside it', async () => {
    const run = await imported(ctx, ncclFixture(A100), 'peak');
    expect(run).toMatchObject({ peakBusbwGBs: 160.26, peakSizeBytes: 2 ** 33, largestBusbwGBs: 160.26 });
  });

  it('stores no rank count for a header-less paste ("ranks unknown"), never one made up from the rows', async () => {
    const run = await imported(ctx, ncclFixture('all_reduce_perf.rows-only.good.txt'), 'rows-only');
    expect(run.ranks).toBeNull();
  });
});

describe("the demo's history", () => {
  it('keeps its three GDR-off nights GDR-off from their own lines, and judges every night as 8x H100', async () => {
    const demo = testContext();
    try {
      const plan = demoHistoryPlan(Date.now());
      for (const p of plan) {
        const text = readFileSync(join(NCCL_FIXTURES, p.fixture), 'utf8');
        await demo.scans.importNccl(text, DEMO_LABELS, p.name, 'api', p);
      }
      const runs = createNcclRepo(demo.db).list({ limit: 100 });
      expect(runs).toHaveLength(plan.length);
      const off = runs.filter((r) => r.verdict === 'host-memory-fallback');
      expect(off.map((r) => [r.gdr, r.flags.includes('gdr-off')])).toEqual([
        ['disabled', true],
        ['disabled', true],
        ['disabled', true],
      ]);
      expect(runs.filter((r) => r.flags.includes('gdr-unknown'))).toEqual([]);
      expect(new Set(runs.map((r) => r.targetProfile))).toEqual(new Set(['8x H100, 8x400G']));
    } finally {
      demo.cleanup();
    }
  });
});
