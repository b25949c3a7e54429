import { describe, expect, it } from 'vitest';
import {
  evaluateNcclRun,
  findingsDuringRun,
  gdrWord,
  largestBusbw,
  ncclOutcome,
  normaliseCollective,
  peakBusbw,
  type NcclRun,
} from './nccl.ts';

const H100 = { gpuModel: 'NVIDIA H100 80GB HBM3', gpusPerNode: 8 };

const run = (peak: number, extra: Partial<NcclRun> = {}): NcclRun => ({
  id: 'r1',
  collective: 'all_reduce_perf',
  nodes: 2,
  startedAt: '2025-04-01T10:00:00Z',
  finishedAt: '2025-04-01T10:10:00Z',
  rows: [
    { sizeBytes: 8, busbwGBs: 0.01 },
    { sizeBytes: 1 << 20, busbwGBs: 40 },
    { sizeBytes: 2 ** 33, busbwGBs: peak },
  ],
  gdr: 'enabled',
  hardware: H100,
  labels: { cluster: 'a' },
  ...extra,
});
const kinds = (r: ReturnType<typeof evaluateNcclRun>) => r.verdicts.map((v) => v.kind).sort();

describe('evaluateNcclRun()', () => {
  it('passes a 2-node 8x H100 all_reduce at 370 GB/s against the 8x400G profile', () => {
    const r = evaluateNcclRun(run(370, { avgBusBwGBs: 70.74 }));
    expect(r.verdicts).toEqual([]);
    expect(r.summary).toMatchObject({
      peakBusBwGBs: 370,
      peakSizeBytes: 2 ** 33,
      largestBusBwGBs: 370,
      avgBusBwGBs: 70.74,
      scope: 'multi-node',
      target: { minBusBwGBs: 360 },
      profile: '8x H100, 8x400G',
    });
  });

  it('judges single-node 8x H100 all_reduce against the NVLink target', () => {
    expect(kinds(evaluateNcclRun(run(400, { nodes: 1 })))).toEqual(['nccl-below-target']);
  });

  it('gives no target, hence no verdict, to hardware no profile knows', () => {
    const amd = { gpuModel: 'AMD Instinct MI300X', gpusPerNode: 1 };
    const r = evaluateNcclRun(run(40, { hardware: amd }));
    expect(r.summary.target).toBeUndefined();
    expect(r.summary.noTarget).toBe(
      'no target for this hardware: AMD Instinct MI300X, 1x per node, NICs not in the log; ' +
        'set IBWATCH_NCCL_TARGETS to judge',
    );
    expect(ncclOutcome(r.summary, r.verdicts).verdict).toBe('unknown');
  });

  it('judges an 8x A100 run with 4 HDR200 NICs against 90 GB/s, not the H100 360', () => {
    const a100 = { gpuModel: 'NVIDIA A100-SXM4-80GB', gpusPerNode: 8, nicsPerNode: 4 };
    const ok = evaluateNcclRun(run(96, { hardware: a100 }));
    expect(ok.summary.target).toMatchObject({ minBusBwGBs: 90, note: '8x A100, 4x200G' });
    expect(ncclOutcome(ok.summary, ok.verdicts)).toEqual({ verdict: 'pass', flags: [] });
    expect(kinds(evaluateNcclRun(run(70, { hardware: a100 })))).toEqual(['nccl-below-target']);
  });

  it('gives no target to an A100 log that does not say its NICs (two profiles fit)', () => {
    const r = evaluateNcclRun(run(96, { hardware: { gpuModel: 'NVIDIA A100-SXM4-80GB', gpusPerNode: 8 } }));
    expect(r.summary.target).toBeUndefined();
    expect(r.summary.noTarget).toMatch(/fits 8x A100, 8x200G and 8x A100, 4x200G/);
  });

  it('names host-memory fallback only from GDR-disabled lines', () => {
    const r = evaluateNcclRun(run(72, { gdr: 'disabled' }));
    expect(r.verdicts.find((v) => v.kind === 'nccl-host-memory')!.title).toMatch(
      /fell back to host memory: its NCCL_DEBUG=INFO lines show GPUDirect RDMA disabled/,
    );
    expect(ncclOutcome(r.summary, r.verdicts)).toEqual({ verdict: 'host-memory-fallback', flags: ['gdr-off'] });
  });

  it('says "GDR state unknown" (minor), not fallback, at 75 GB/s without GDR lines', () => {
    const r = evaluateNcclRun(run(75, { gdr: 'unknown' }));
    expect(kinds(r)).toEqual(['nccl-below-target', 'nccl-gdr-unknown']);
    const v = r.verdicts.find((x) => x.kind === 'nccl-gdr-unknown')!;
    expect(v.severity).toBe('minor');
    expect(v.title).toMatch(/in the host-staging band \(50-100 GB\/s\); GDR state unknown: rerun with NCCL_DEBUG=INFO/);
    expect(ncclOutcome(r.summary, r.verdicts)).toEqual({ verdict: 'fail', flags: ['gdr-unknown'] });
  });

  it('does not call the band a hint on hardware whose target is inside it', () => {
    const a100 = { gpuModel: 'NVIDIA A100-SXM4-80GB', gpusPerNode: 8, nicsPerNode: 4 };
    expect(kinds(evaluateNcclRun(run(95, { gdr: 'unknown', hardware: a100 })))).toEqual([]);
  });

  it('headlines the peak over every size with its size, the largest size beside it', () => {
    const r = evaluateNcclRun(
      run(0, {
        rows: [
          { sizeBytes: 2 ** 28, busbwGBs: 371 },
          { sizeBytes: 2 ** 33, busbwGBs: 352 },
          { sizeBytes: 1024, busbwGBs: 1 },
        ],
      }),
    );
    expect(r.summary).toMatchObject({
      peakBusBwGBs: 371,
      peakSizeBytes: 2 ** 28,
      largestBusBwGBs: 352,
      largestSizeBytes: 2 ** 33,
    });
    expect(kinds(r)).toEqual([]);
  });

  it('flags a regression when the largest size falls below the median of earlier runs with the same labels', () => {
    const hist = [380, 390, 385, 200].map((p, i) =>
      run(p, { id: `h${i}`, startedAt: `2025-03-0${i + 1}T00:00:00Z`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }),
    );
    const other = run(100, { id: 'x', labels: { cluster: 'b' }, finishedAt: '2025-03-09T00:00:00Z' });
    const r = evaluateNcclRun(run(361), { history: [...hist, other] });
    expect(r.summary.baselineGBs).toBe(382.5);
    expect(kinds(r)).toEqual([]);
    const r2 = evaluateNcclRun(run(330), { history: hist });
    expect(r2.verdicts.find((v) => v.kind === 'nccl-regression')!.evidence).toMatchObject({
      baselineGBs: 382.5,
      largestBusBwGBs: 330,
      runs: 4,
    });
  });

  it('compares the largest size, so a peak moving to a smaller size is no regression', () => {
    const hist = [380, 390, 385].map((p, i) => run(p, { id: `h${i}`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }));
    const moved = run(383, {
      rows: [
        { sizeBytes: 2 ** 28, busbwGBs: 395 },
        { sizeBytes: 2 ** 33, busbwGBs: 383 },
      ],
    });
    expect(kinds(evaluateNcclRun(moved, { history: hist }))).toEqual([]);
  });

  it('judges a run on an unknown number of hosts against no target', () => {
    const r = evaluateNcclRun(run(100, { nodes: undefined }));
    expect(r.summary.scope).toBeUndefined();
    expect(r.summary.target).toBeUndefined();
    expect(r.summary.noTarget).toMatch(/number of nodes is unknown/);
    expect(kinds(r)).toEqual([]);
  });

  it('keeps runs without a usable largest size out of the baseline (an Infinity run is no baseline)', () => {
    const hist = [Infinity, Infinity, Infinity, 380, 390].map((p, i) =>
      run(p, { id: `h${i}`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }),
    );
    const r = evaluateNcclRun(run(370), { history: hist });
    expect(r.summary.baselineGBs).toBeUndefined();
    expect(kinds(r)).toEqual([]);
  });

  it('needs at least 3 baseline runs', () => {
    const hist = [380, 390].map((p, i) => run(p, { id: `h${i}`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }));
    expect(evaluateNcclRun(run(300), { history: hist }).summary.baselineGBs).toBeUndefined();
  });
});

describe('peakBusbw() and largestBusbw()', () => {
  it('takes the peak over every size, and the largest size on its own', () => {
    const rows = [
      { sizeBytes: 1024, busbwGBs: 1 },
      { sizeBytes: 2 ** 28, busbwGBs: 350 },
      { sizeBytes: 2 ** 33, busbwGBs: 338.82 },
      { sizeBytes: 2 ** 32, busbwGBs: 330.58 },
    ];
    expect(peakBusbw(rows)).toEqual({ busbwGBs: 350, sizeBytes: 2 ** 28 });
    expect(largestBusbw(rows)).toEqual({ busbwGBs: 338.82, sizeBytes: 2 ** 33 });
  });

  it('ignores values that are not measurements and has no figure without one', () => {
    expect(peakBusbw([{ sizeBytes: 2 ** 33, busbwGBs: Infinity }])).toBeUndefined();
    expect(peakBusbw([{ sizeBytes: 2 ** 33, busbwGBs: -1 }])).toBeUndefined();
    expect(peakBusbw([])).toBeUndefined();
    expect(
      largestBusbw([
        { sizeBytes: 1 << 20, busbwGBs: 40 },
        { sizeBytes: 2 ** 33, busbwGBs: Infinity },
      ]),
    ).toBeUndefined();
    expect(
      peakBusbw([
        { sizeBytes: 2 ** 33, busbwGBs: Number.NaN },
        { sizeBytes: 2 ** 32, busbwGBs: 300 },
      ]),
    ).toEqual({ busbwGBs: 300, sizeBytes: 2 ** 32 });
  });
});

describe('gdrWord()', () => {
  it('says on, off, partly off or unknown', () => {
    expect(['enabled', 'disabled', 'mixed', 'unknown'].map(gdrWord)).toEqual(['on', 'off', 'partly off', 'unknown']);
  });
});

describe('findingsDuringRun()', () => {
  it('returns the findings open during the run window', () => {
    const f = [
      { id: 'before', firstSeen: '2025-04-01T08:00:00Z', resolvedAt: '2025-04-01T09:00:00Z' },
      { id: 'overlap', firstSeen: '2025-04-01T09:00:00Z', resolvedAt: '2025-04-01T10:05:00Z' },
      { id: 'open', firstSeen: '2025-04-01T10:09:00Z' },
      { id: 'after', firstSeen: '2025-04-01T11:00:00Z' },
    ];
    expect(findingsDuringRun(run(1), f).map((x) => x.id)).toEqual(['overlap', 'open']);
  });
});

describe('normaliseCollective()', () => {
  it('accepts tool names', () => {
    expect(normaliseCollective('all_reduce_perf')).toBe('all_reduce');
    expect(normaliseCollective('allgather')).toBe('all_gather');
  });
});
