import { describe, expect, it } from 'vitest';
import {
  bandwidthReport,
  formatBytes,
  ncclSeriesName,
  passRateText,
  ranksText,
  type FindingRow,
  type NcclRunDetailReply,
  type NcclRunRow,
} from '@ibwatch/fabric';
import {
  collectivesOf,
  correlationText,
  formatGBs,
  formatPct,
  gdrText,
  gdrUnknownRuns,
  hostMemoryFallbacks,
  parseRange,
  presetRange,
  reportApiPath,
  reportCsvHref,
  runsApiPath,
  shiftRange,
  splitCorrelated,
  targetText,
} from './bandwidth.ts';
import {
  busbwDomain,
  largeMessageBand,
  latestBySeries,
  pivotBySeries,
  runsToPoints,
  sizePoints,
  targetsBySeries,
} from './series.ts';

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

const run = (id: number, over: Partial<NcclRunRow> = {}): NcclRunRow => ({
  id,
  createdAt: id * H,
  at: id * H,
  startedAt: id * H - H,
  finishedAt: id * H,
  collective: 'all_reduce',
  labels: {},
  hosts: ['dgx-1', 'dgx-2'],
  nodes: 2,
  scope: 'multi-node',
  ranks: 16,
  gpuModel: 'NVIDIA H100 80GB HBM3',
  gpusPerNode: 8,
  nicsPerNode: 8,
  nicGbps: null,
  ncclVersion: null,
  gdr: 'enabled',
  avgBusbwGBs: 70.742,
  peakBusbwGBs: 338.82,
  peakSizeBytes: 2 ** 33,
  largestBusbwGBs: 338.82,
  largestSizeBytes: 2 ** 33,
  targetGBs: 360,
  targetProfile: '8x H100, 8x400G',
  targetNote: null,
  verdict: 'fail',
  regression: false,
  flags: [],
  truncated: false,
  importWarnings: 0,
  ...over,
});

// The period the issue reviewed: the real 16-rank run (avg 70.742, 338.82 at 8 GiB) and others.
const PERIOD: NcclRunRow[] = [
  run(1),
  run(2, { peakBusbwGBs: 381.2, avgBusbwGBs: 150.1, verdict: 'pass' }),
  run(3, {
    peakBusbwGBs: 72.3,
    avgBusbwGBs: 20.4,
    gdr: 'disabled',
    verdict: 'host-memory-fallback',
    flags: ['gdr-off'],
  }),
  run(4, { collective: 'broadcast', peakBusbwGBs: 45.5, targetGBs: null, verdict: 'unknown' }),
  run(5, { nodes: 1, scope: 'single-node', hosts: ['dgx-1'], peakBusbwGBs: 470, targetGBs: 460, verdict: 'pass' }),
];

describe('the bandwidth page and the report agree', () => {
  const points = runsToPoints(PERIOD);
  const report = bandwidthReport(PERIOD, [], 0, 10 * H);

  it('plots every run at its headline, the figure its table row shows', () => {
    expect(points.map((p) => [p.at, p.busbwGBs])).toEqual(PERIOD.map((r) => [r.at, r.peakBusbwGBs]));
    // The avg footer (70.742) is nowhere in the chart.
    expect(points.some((p) => p.busbwGBs === 70.742)).toBe(false);
  });

  it('reports best, median and worst per series from the same points as the chart', () => {
    const { rows, series } = pivotBySeries(points);
    expect(series).toEqual(['all_reduce', 'all_reduce (single node)', 'broadcast']);
    for (const c of report.byCollective) {
      const values = rows.map((row) => row[ncclSeriesName(c)]).filter((v): v is number => v !== undefined);
      expect([c.bestGBs, c.worstGBs]).toEqual([Math.max(...values), Math.min(...values)]);
    }
    expect(report.byCollective.find((c) => c.collective === 'all_reduce' && c.scope === 'multi-node')).toMatchObject({
      runs: 3,
      bestGBs: 381.2,
      medianGBs: 338.82,
      worstGBs: 72.3,
      targetGBs: 360,
    });
  });

  it('counts the pass rate over the runs with a target', () => {
    expect(report).toMatchObject({ runs: 5, withTarget: 4, passed: 2, passRate: 0.5 });
    expect(passRateText(report)).toBe('4 of 5 runs had a target; 2 met it.');
  });

  it('draws each target inside the chart, and the single-node one on its own series', () => {
    const targets = targetsBySeries(PERIOD);
    expect(targets).toEqual({ all_reduce: 360, 'all_reduce (single node)': 460 });
    const [, top] = busbwDomain(
      points.map((p) => p.busbwGBs),
      Object.values(targets),
    );
    expect(top).toBeGreaterThanOrEqual(470);
    // A week of host-memory fallbacks at ~72 GB/s still shows the 360 target line.
    const [, low] = busbwDomain([72.3, 71.8], [360]);
    expect(low).toBeGreaterThan(360);
  });

  it('draws no target line for a series whose runs ran on hardware with different targets', () => {
    const a100 = run(8, { peakBusbwGBs: 160.3, targetGBs: 90, targetProfile: '8x A100, 4x200G', verdict: 'pass' });
    expect(targetsBySeries([...PERIOD, a100])).toEqual({ 'all_reduce (single node)': 460 });
    const mixed = bandwidthReport([...PERIOD, a100], [], 0, 10 * H);
    expect(mixed.byCollective.find((c) => c.collective === 'all_reduce' && c.scope === 'multi-node')?.targetGBs).toBe(
      null,
    );
  });

  it('gives the sparkline the latest headline of each series, as the table', () => {
    expect(latestBySeries(points)).toEqual({
      all_reduce: 72.3,
      broadcast: 45.5,
      'all_reduce (single node)': 470,
    });
  });

  it('skips runs without a headline', () => {
    expect(runsToPoints([run(9, { peakBusbwGBs: null })])).toEqual([]);
  });
});

describe('runs', () => {
  it('finds host-memory fallbacks (from GDR lines), runs with GDR unknown in the band, and collectives', () => {
    const band = run(7, { peakBusbwGBs: 72.3, gdr: 'unknown', flags: ['gdr-unknown'] });
    expect(hostMemoryFallbacks([...PERIOD, band]).map((r) => r.id)).toEqual([3]);
    expect(gdrUnknownRuns([...PERIOD, band]).map((r) => r.id)).toEqual([7]);
    expect(collectivesOf(PERIOD)).toEqual(['all_reduce', 'broadcast']);
  });
  it('says what target a run was judged against with its profile, or why none', () => {
    expect(targetText(run(1))).toBe(
      '360.0 GB/s for all_reduce across nodes, over the fabric; hardware profile 8x H100, 8x400G',
    );
    expect(targetText(PERIOD[4]!)).toBe(
      '460.0 GB/s for all_reduce on one node, over NVLink; hardware profile 8x H100, 8x400G',
    );
    const note =
      'no target for this hardware: AMD Instinct MI300X, 1x per node, NICs not in the log; ' +
      'set IBWATCH_NCCL_TARGETS to judge';
    expect(targetText(run(1, { targetGBs: null, targetProfile: null, targetNote: note }))).toBe(note);
  });
  it('writes GDR state and ranks as the CSV and CLI do', () => {
    expect(['enabled', 'disabled', 'mixed', 'unknown'].map((g) => gdrText(g as NcclRunRow['gdr']))).toEqual([
      '● on',
      '✖ off',
      '◆ partly off',
      '◆ unknown',
    ]);
    expect(ranksText(null)).toBe('ranks unknown');
    expect(ranksText(16)).toBe('16 ranks');
  });
});

describe('one run', () => {
  const rows: NcclRunDetailReply['rows'] = [0, 8, 2 ** 20, 2 ** 30, 2 ** 33].map((sizeBytes, i) => ({
    sizeBytes,
    type: 'float',
    redop: 'sum',
    outOfPlace: { timeUs: 1, algbwGBs: 1, busbwGBs: i * 10, wrong: 0 },
    inPlace: { timeUs: 1, algbwGBs: 1, busbwGBs: null, wrong: null },
  }));

  it('plots busbw against log2 of the size, without the zero-byte row', () => {
    const p = sizePoints(rows);
    expect(p.map((x) => x.log2)).toEqual([3, 20, 30, 33]);
    expect(p.at(-1)).toMatchObject({ sizeBytes: 2 ** 33, outOfPlace: 40, inPlace: null });
    expect(largeMessageBand(p)).toEqual([30, 33]);
    expect(largeMessageBand(p.slice(0, 2))).toEqual([20, 20]);
    expect(largeMessageBand([])).toBeNull();
  });

  it('splits the findings around it and says where they were looked for', () => {
    const f = (id: number, subjectType: FindingRow['subjectType']) => ({ id, subjectType }) as FindingRow;
    const split = splitCorrelated([f(1, 'run'), f(2, 'port'), f(3, 'sm'), f(4, 'link'), f(5, 'fabric')]);
    expect([split.own, split.onPath, split.subnet].map((x) => x.map((y) => y.id))).toEqual([[1], [2, 4, 5], [3]]);
    const correlation = {
      from: 0,
      to: 1,
      links: 16,
      switches: 8,
      tiers: ['leaf'],
      unmatchedHosts: [],
      pathFindings: 0,
      flagged: false,
    };
    expect(
      correlationText({
        run: run(1),
        correlation: {
          ...correlation,
          hosts: [
            { host: 'dgx-1', hcas: 8 },
            { host: 'dgx-2', hcas: 8 },
          ],
        },
      }),
    ).toBe('findings on 2 hosts (16 HCAs), their 16 links and the 8 switches above them (leaf).');
    expect(correlationText({ run: run(1), correlation: { ...correlation, hosts: [], links: 0 } })).toBe(
      "none of the run's hosts (dgx-1, dgx-2) is in the topology, so no fabric finding can be tied to this run.",
    );
  });
});
