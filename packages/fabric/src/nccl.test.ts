import { describe, expect, it } from 'vitest';
import { evaluateNcclRun, findingsDuringRun, headlineBusbw, normaliseCollective, type NcclRun } from './nccl.ts';

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
  labels: { cluster: 'a' },
  ...extra,
});
const kinds = (r: ReturnType<typeof evaluateNcclRun>) => r.verdicts.map((v) => v.kind).sort();

describe('evaluateNcclRun()', () => {
  it('passes a 2-node all_reduce at 370 GB/s and reports peak and average', () => {
    const r = evaluateNcclRun(run(370, { avgBusBwGBs: 70.74 }));
    expect(r.verdicts).toEqual([]);
    expect(r.summary).toMatchObject({
      peakBusBwGBs: 370,
      largePeakBusBwGBs: 370,
      avgBusBwGBs: 70.74,
      scope: 'multi-node',
      target: { minBusBwGBs: 360 },
    });
  });

  it('judges single-node all_reduce against the NVLink target', () => {
    expect(kinds(evaluateNcclRun(run(400, { nodes: 1 })))).toEqual(['nccl-below-target']);
  });

  it('reports host-memory fallback when GDR is disabled', () => {
    const r = evaluateNcclRun(run(300, { gdr: 'disabled' }));
    expect(r.verdicts.find((v) => v.kind === 'nccl-host-memory')!.title).toMatch(
      /fell back to host memory: GPUDirect RDMA is disabled/,
    );
  });

  it('suspects host memory at 75 GB/s even when GDR status is unknown', () => {
    expect(kinds(evaluateNcclRun(run(75, { gdr: 'unknown' })))).toEqual(['nccl-below-target', 'nccl-host-memory']);
  });

  it('uses large-message busbw, not the small-size dominated average', () => {
    const r = evaluateNcclRun(
      run(370, {
        rows: [
          { sizeBytes: 2 ** 33, busbwGBs: 370 },
          { sizeBytes: 1024, busbwGBs: 400 },
        ],
      }),
    );
    expect(r.summary.largePeakBusBwGBs).toBe(370);
    expect(r.summary.peakBusBwGBs).toBe(400);
  });

  it('flags a regression against the median of previous runs with the same labels', () => {
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
      runs: 4,
    });
  });

  it('judges a run on an unknown number of hosts against no target', () => {
    const r = evaluateNcclRun(run(100, { nodes: undefined }));
    expect(r.summary.scope).toBeUndefined();
    expect(r.summary.target).toBeUndefined();
    expect(kinds(r)).toEqual([]);
  });

  it('keeps runs without a usable headline out of the baseline (an Infinity run is no baseline)', () => {
    const hist = [Infinity, Infinity, Infinity, 380, 390].map((p, i) =>
      run(p, { id: `h${i}`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }),
    );
    const r = evaluateNcclRun(run(370), { history: hist });
    expect(r.summary.baselineGBs).toBeUndefined();
    expect(kinds(r)).toEqual([]);
  });

  it('reports the size the headline was measured at', () => {
    expect(evaluateNcclRun(run(338.8)).summary).toMatchObject({
      largePeakBusBwGBs: 338.8,
      largePeakSizeBytes: 2 ** 33,
    });
  });

  it('needs at least 3 baseline runs', () => {
    const hist = [380, 390].map((p, i) => run(p, { id: `h${i}`, finishedAt: `2025-03-0${i + 1}T00:10:00Z` }));
    expect(evaluateNcclRun(run(300), { history: hist }).summary.baselineGBs).toBeUndefined();
  });
});

describe('headlineBusbw()', () => {
  it('takes the peak over rows of at least 1 GiB, ignoring a faster small size', () => {
    const rows = [
      { sizeBytes: 1024, busbwGBs: 400 },
      { sizeBytes: 2 ** 30, busbwGBs: 297.86 },
      { sizeBytes: 2 ** 33, busbwGBs: 338.82 },
      { sizeBytes: 2 ** 32, busbwGBs: 330.58 },
    ];
    expect(headlineBusbw(rows)).toEqual({ busbwGBs: 338.82, sizeBytes: 2 ** 33 });
  });

  it('falls back to the largest size when no row is 1 GiB', () => {
    const rows = [
      { sizeBytes: 1 << 20, busbwGBs: 50 },
      { sizeBytes: 1 << 24, busbwGBs: 30 },
    ];
    expect(headlineBusbw(rows)).toEqual({ busbwGBs: 30, sizeBytes: 1 << 24 });
  });

  it('ignores values that are not measurements and has no headline without one', () => {
    expect(headlineBusbw([{ sizeBytes: 2 ** 33, busbwGBs: Infinity }])).toBeUndefined();
    expect(
      headlineBusbw([
        { sizeBytes: 1 << 20, busbwGBs: 40 },
        { sizeBytes: 2 ** 33, busbwGBs: Infinity },
      ]),
    ).toBeUndefined();
    expect(headlineBusbw([{ sizeBytes: 2 ** 33, busbwGBs: -1 }])).toBeUndefined();
    expect(headlineBusbw([])).toBeUndefined();
    expect(
      headlineBusbw([
        { sizeBytes: 2 ** 33, busbwGBs: Number.NaN },
        { sizeBytes: 2 ** 32, busbwGBs: 300 },
      ]),
    ).toEqual({ busbwGBs: 300, sizeBytes: 2 ** 32 });
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
