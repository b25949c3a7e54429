/**
 * Pure shaping of nccl busbw data for charts: one row per time, one column per collective.
 */
import type { NcclRunRow, NcclVerdict } from '@ibwatch/fabric';

export interface TrendPoint {
  at: number;
  busbwGBs: number;
  collective: string;
  verdict?: NcclVerdict;
}

export interface PivotResult {
  rows: Array<{ at: number } & Record<string, number>>;
  collectives: string[];
}

/**
 * Pivot points into chart rows (sorted by time). Points at the same instant for the same
 * collective keep the last one. Collectives are sorted by name for stable colours.
 */
export function pivotByCollective(points: readonly TrendPoint[]): PivotResult {
  const byAt = new Map<number, { at: number } & Record<string, number>>();
  const cols = new Set<string>();
  for (const p of points) {
    if (!Number.isFinite(p.busbwGBs)) continue;
    cols.add(p.collective);
    let row = byAt.get(p.at);
    if (!row) {
      row = { at: p.at } as { at: number } & Record<string, number>;
      byAt.set(p.at, row);
    }
    row[p.collective] = p.busbwGBs;
  }
  return { rows: [...byAt.values()].sort((a, b) => a.at - b.at), collectives: [...cols].sort() };
}

/** Runs → trend points (runs without a measured busbw are skipped). */
export function runsToPoints(runs: readonly NcclRunRow[]): TrendPoint[] {
  const out: TrendPoint[] = [];
  for (const r of runs) {
    if (r.avgBusbwGBs === null) continue;
    out.push({ at: r.createdAt, busbwGBs: r.avgBusbwGBs, collective: r.collective, verdict: r.verdict });
  }
  return out;
}

/** Target per collective (the latest run's target wins; null when none is known). */
export function targetsByCollective(runs: readonly NcclRunRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  const sorted = [...runs].sort((a, b) => a.createdAt - b.createdAt);
  for (const r of sorted) if (r.targetGBs !== null) out[r.collective] = r.targetGBs;
  return out;
}

/** A fixed palette that also differs in lightness, so lines stay distinguishable in greyscale. */
export const SERIES_COLOURS = ['#2563eb', '#d97706', '#059669', '#9333ea', '#dc2626', '#0891b2', '#4b5563', '#be185d'];
export const SERIES_DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '3 6'];

/** The most recent busbw of each collective. */
export function latestByCollective(points: readonly TrendPoint[]): Record<string, number> {
  const out: Record<string, number> = {};
  const at: Record<string, number> = {};
  for (const p of points) {
    if (!Number.isFinite(p.busbwGBs)) continue;
    if (at[p.collective] === undefined || p.at >= at[p.collective]) {
      at[p.collective] = p.at;
      out[p.collective] = p.busbwGBs;
    }
  }
  return out;
}
