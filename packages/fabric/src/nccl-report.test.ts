import { describe, expect, it } from 'vitest';
import type { NcclRunRow } from './api.ts';
import { bandwidthReport, ncclSeriesName, passRateText, roundGBs, type ReportRun } from './nccl-report.ts';

const run = (
  collective: string,
  scope: NcclRunRow['scope'],
  peak: number | null,
  target: number | null,
  verdict: NcclRunRow['verdict'],
): ReportRun => ({ collective, scope, peakBusbwGBs: peak, targetGBs: target, verdict });

describe('bandwidthReport()', () => {
  it('counts the pass rate over the runs that had a target', () => {
    const r = bandwidthReport(
      [
        run('all_reduce', 'multi-node', 370, 360, 'pass'),
        run('all_reduce', 'multi-node', 380, 360, 'pass'),
        run('all_reduce', 'multi-node', 72.3, 360, 'host-memory-fallback'),
        run('broadcast', 'multi-node', 45, null, 'unknown'),
        run('hypercube', 'multi-node', 20, null, 'unknown'),
      ],
      [],
      0,
      1,
    );
    expect(r).toMatchObject({ runs: 5, withTarget: 3, passed: 2 });
    expect(r.passRate).toBeCloseTo(2 / 3);
    expect(passRateText(r)).toBe('3 of 5 runs had a target; 2 met it.');
  });

  it('has no pass rate when no run had a target (never "0 % of 4 runs")', () => {
    const r = bandwidthReport(
      [1, 2, 3, 4].map(() => run('broadcast', 'multi-node', 40, null, 'unknown')),
      [],
      0,
      1,
    );
    expect(r.passRate).toBeNull();
    expect(passRateText(r)).toBe('None of the 4 runs had a target: no pass rate.');
  });

  it('keeps single-node and multi-node runs of one collective apart', () => {
    const r = bandwidthReport(
      [
        run('all_reduce', 'multi-node', 338.8, 360, 'fail'),
        run('all_reduce', 'single-node', 470, 460, 'pass'),
        run('all_reduce', 'multi-node', 370, 360, 'pass'),
      ],
      [],
      0,
      1,
    );
    expect(r.byCollective).toEqual([
      expect.objectContaining({
        collective: 'all_reduce',
        scope: 'multi-node',
        runs: 2,
        bestGBs: 370,
        worstGBs: 338.8,
      }),
      expect.objectContaining({ collective: 'all_reduce', scope: 'single-node', runs: 1, targetGBs: 460 }),
    ]);
  });

  it('ignores headlines that are not numbers', () => {
    const r = bandwidthReport(
      [
        run('all_reduce', 'multi-node', Infinity, 360, 'unknown'),
        run('all_reduce', 'multi-node', null, 360, 'unknown'),
      ],
      [],
      0,
      1,
    );
    expect(r.byCollective[0]).toMatchObject({ bestGBs: null, medianGBs: null, worstGBs: null });
  });

  it('ranks the fabric issues of the period by count', () => {
    const issues = [
      { kind: 'symbol-errors', title: 'a', severity: 'major' as const },
      { kind: 'link-flap', title: 'b', severity: 'major' as const },
      { kind: 'symbol-errors', title: 'c', severity: 'major' as const },
    ];
    expect(bandwidthReport([], issues, 0, 1).topFabricIssues.map((i) => [i.kind, i.count])).toEqual([
      ['symbol-errors', 2],
      ['link-flap', 1],
    ]);
  });

  it('reports each kind of fabric issue at the worst (peak) severity any of its findings had', () => {
    const issues = [
      { kind: 'symbol-errors', title: 'a', severity: 'major' as const },
      { kind: 'symbol-errors', title: 'c', severity: 'critical' as const },
      { kind: 'symbol-errors', title: 'd', severity: 'minor' as const },
    ];
    expect(bandwidthReport([], issues, 0, 1).topFabricIssues.map((i) => [i.kind, i.severity])).toEqual([
      ['symbol-errors', 'critical'],
    ]);
  });
});

describe('series names and rounding', () => {
  it('names a series by collective, qualified when not multi-node', () => {
    expect(ncclSeriesName({ collective: 'all_reduce', scope: 'multi-node' })).toBe('all_reduce');
    expect(ncclSeriesName({ collective: 'all_reduce', scope: 'single-node' })).toBe('all_reduce (single node)');
    expect(ncclSeriesName({ collective: 'all_reduce', scope: null })).toBe('all_reduce (nodes unknown)');
  });
  it('rounds GB/s to one decimal', () => {
    expect(roundGBs(287.03999999999996)).toBe(287);
    expect(roundGBs(338.82)).toBe(338.8);
  });
});
