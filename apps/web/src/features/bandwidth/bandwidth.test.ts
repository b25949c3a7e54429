import { describe, expect, it } from 'vitest';
import type { NcclRunRow } from '@ibwatch/fabric';
import {
  collectivesOf,
  formatBytes,
  formatGBs,
  formatPct,
  hostMemoryFallbacks,
  parseRange,
  presetRange,
  reportApiPath,
  reportCsvHref,
  runsApiPath,
  shiftRange,
} from './bandwidth.ts';
import { runsToPoints, targetsByCollective } from './series.ts';

const NOW = Date.UTC(2026, 10, 29, 17, 20);
const H = 3_600_000;

describe('report range', () => {
  it('defaults to the last week ending at the next full hour', () => {
    const r = parseRange({}, NOW);
    expect(r.to).toBe(Date.UTC(2026, 10, 29, 18));
    expect(r.to - r.from).toBe(7 * 24 * H);
    expect(r.period).toBe('week');
    expect(parseRange({ period: 'month' }, NOW).to - parseRange({ period: 'month' }, NOW).from).toBe(30 * 24 * H);
  });
  it('reads from/to from the URL and recognises the period length', () => {
    const w = presetRange('week', NOW);
    expect(parseRange({ from: String(w.from), to: String(w.to) }, NOW)).toEqual(w);
    expect(parseRange({ from: '1000', to: '5000' }, NOW)).toEqual({ from: 1000, to: 5000, period: 'custom' });
    expect(parseRange({ from: '5000', to: '1000' }, NOW).period).toBe('week');
    expect(parseRange({ from: 'x', to: '1000' }, NOW).period).toBe('week');
  });
  it('shifts by one period', () => {
    expect(shiftRange({ from: 10, to: 20, period: 'custom' }, -1)).toEqual({ from: 0, to: 10, period: 'custom' });
  });
  it('builds API and CSV links', () => {
    const r = { from: 1000, to: 2000, period: 'custom' as const };
    expect(reportApiPath(r)).toBe('/api/reports/bandwidth?from=1000&to=2000');
    expect(reportCsvHref(r)).toBe('/api/reports/bandwidth.csv?from=1000&to=2000');
    expect(runsApiPath(r, 'all_reduce')).toBe('/api/nccl/runs?collective=all_reduce&from=1000&to=2000');
    expect(runsApiPath(r, undefined)).toBe('/api/nccl/runs?from=1000&to=2000');
  });
});

describe('formatting', () => {
  it('formats sizes, percentages and bandwidth', () => {
    expect(formatBytes(8)).toBe('8 B');
    expect(formatBytes(1048576)).toBe('1 MiB');
    expect(formatBytes(8589934592)).toBe('8 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatPct(0.8123)).toBe('81.2 %');
    expect(formatGBs(null)).toBe('—');
    expect(formatGBs(371.25)).toBe('371.3 GB/s');
  });
});

describe('runs', () => {
  const run = (
    id: number,
    collective: string,
    verdict: NcclRunRow['verdict'],
    bw: number | null,
    target: number | null,
    at = id,
  ): NcclRunRow => ({
    id,
    createdAt: at,
    collective,
    labels: {},
    hosts: [],
    ranks: 8,
    ncclVersion: null,
    gdr: 'enabled',
    avgBusbwGBs: bw,
    peakBusbwGBs: bw,
    targetGBs: target,
    verdict,
    regression: false,
    truncated: false,
  });
  it('finds host-memory fallbacks, collectives, points and targets', () => {
    const runs = [
      run(1, 'all_reduce', 'pass', 370, 360),
      run(2, 'all_gather', 'host-memory-fallback', 40, 300),
      run(3, 'all_reduce', 'unknown', null, 365),
    ];
    expect(hostMemoryFallbacks(runs).map((r) => r.id)).toEqual([2]);
    expect(collectivesOf(runs)).toEqual(['all_gather', 'all_reduce']);
    expect(runsToPoints(runs)).toHaveLength(2);
    expect(targetsByCollective(runs)).toEqual({ all_reduce: 365, all_gather: 300 });
  });
});
