/**
 * Pure helpers for the bandwidth views: the report period in the URL, API/CSV paths, and
 * formatting of sizes and percentages.
 */
import type { NcclRunRow } from '@ibwatch/fabric';
import { serializeQuery, type Query } from '../../router.ts';

export type Period = 'week' | 'month';
export const PERIOD_MS: Record<Period, number> = { week: 7 * 86_400_000, month: 30 * 86_400_000 };
const HOUR = 3_600_000;

export interface ReportRange {
  from: number;
  to: number;
  period: Period | 'custom';
}

/** A preset period ending at the next full hour (so the URL is the same for an hour). */
export function presetRange(period: Period, now: number): ReportRange {
  const to = Math.ceil(now / HOUR) * HOUR;
  return { from: to - PERIOD_MS[period], to, period };
}

/** Range from the URL (`from`, `to` epoch ms, `period`), falling back to the last week. */
export function parseRange(q: Query, now: number): ReportRange {
  const from = Number(q.from);
  const to = Number(q.to);
  const period: Period = q.period === 'month' ? 'month' : 'week';
  if (q.from && q.to && Number.isFinite(from) && Number.isFinite(to) && from < to) {
    const len = to - from;
    return { from, to, period: len === PERIOD_MS.week ? 'week' : len === PERIOD_MS.month ? 'month' : 'custom' };
  }
  return presetRange(period, now);
}

/** The previous (-1) or next (+1) period of the same length. */
export function shiftRange(r: ReportRange, dir: -1 | 1): ReportRange {
  const len = r.to - r.from;
  return { ...r, from: r.from + dir * len, to: r.to + dir * len };
}

export const reportApiPath = (r: ReportRange): string =>
  `/api/reports/bandwidth${serializeQuery({ from: r.from, to: r.to })}`;
export const reportCsvHref = (r: ReportRange): string =>
  `/api/reports/bandwidth.csv${serializeQuery({ from: r.from, to: r.to })}`;

export function runsApiPath(r: ReportRange, collective: string | undefined): string {
  return `/api/nccl/runs${serializeQuery({ collective, from: r.from, to: r.to })}`;
}

/** `0.8123` → `81.2 %`. */
export function formatPct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '—';
}

export function formatGBs(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x.toFixed(1)} GB/s`;
}

/** nccl-tests message sizes: 8 → "8 B", 1048576 → "1 MiB", 8589934592 → "8 GiB". */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/** Runs that fell back to host memory (no GPUDirect RDMA): shown loudly. */
export function hostMemoryFallbacks(runs: readonly NcclRunRow[]): NcclRunRow[] {
  return runs.filter((r) => r.verdict === 'host-memory-fallback');
}

/** Distinct collectives, sorted. */
export function collectivesOf(runs: readonly NcclRunRow[]): string[] {
  return [...new Set(runs.map((r) => r.collective))].sort();
}
