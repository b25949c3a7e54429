import type { BrokenRow, FabricStatusWord, FabricSummary } from './api.ts';

/**
 * A `/api/summary` of a small lab-sized fabric (17 switches, 34 HCAs, 322 links) with `broken`
 * degraded cables and the status `word`, as of `at`: what tests of the views and of the fleet
 * read in place of a collector.
 */
export function sampleSummary(word: FabricStatusWord, broken = 0, at = Date.UTC(2026, 11, 1, 12, 0)): FabricSummary {
  const row = (i: number): BrokenRow => ({
    kind: 'cable',
    key: `link-${i}`,
    severity: word === 'CRITICAL' && i === 1 ? 'critical' : 'major',
    title: `leaf-r${i}-01 port ${32 + i} ↔ spine-0${i} port 1`,
    reasons: ['width 4X->2X'],
    since: at - i * 60_000,
    acknowledged: false,
    ends: [],
    worklistKey: `link-${i}`,
    findingIds: [i],
  });
  return {
    generatedAt: at,
    expectedRate: { width: '4X', speed: 'HDR' },
    switches: 17,
    hcas: 34,
    aggregationNodes: 0,
    ports: 626,
    activePorts: 356,
    links: 322,
    degradedLinks: broken,
    downLinks: 0,
    portsOverThreshold: 0,
    portsErrorsSinceClear: 0,
    portsSaturated: 0,
    counterRates: 'rated',
    findingsBySeverity: { critical: word === 'CRITICAL' ? 1 : 0, major: broken, minor: 0, info: 0 },
    clearedFindings: 0,
    sm: {
      status: 'ok',
      masterGuid: '0xb83fd203ff000101',
      masterName: 'head-01 mlx5_0',
      masterCount: 1,
      standbyCount: 1,
      failoversLast24h: 0,
      lastChangeAt: null,
      missingCount: 0,
      rogueCount: 0,
      observedAt: at - 30_000,
    },
    lastScans: [],
    completedScans: [],
    exampleNames: { switch: null, host: null, rack: null },
    ncclTrend: [],
    fabricStatus: { word, reasons: word === 'OK' ? [] : [`${broken} cables with a problem now`] },
    brokenNow: Array.from({ length: broken }, (_, i) => row(i + 1)),
    recentlyFixed: [],
    recentEvents: [],
    freshness: [
      {
        kind: 'topology',
        intervalMs: 600_000,
        state: word === 'STALE' ? 'stale' : 'fresh',
        lastOkAt: at - 60_000,
        failuresInRow: 0,
        lastError: null,
        reason: 'last success 60 s ago (every 10 min)',
      },
    ],
    collector: {
      source: 'diags',
      schedules: [{ kind: 'topology', cron: '0 */10 * * * *', intervalMs: 600_000 }],
      text: 'topology every 10 min',
      startedAt: at - 3_600_000,
      from: 'running',
    },
  };
}
