/**
 * Pure shaping of nccl busbw data for charts. Every chart plots a run's headline (its peak busbw
 * at large messages, `NcclRunRow.peakBusbwGBs`) at the time the run happened, one series per
 * collective and scope (`ncclSeriesName`): the same number the table, the report and the CSV show.
 */
import {
  NCCL_LARGE_MESSAGE_BYTES,
  ncclSeriesName,
  type NcclRunDetailReply,
  type NcclRunRow,
  type NcclRunScope,
  type NcclVerdict,
} from '@ibwatch/fabric';

export interface TrendPoint {
  at: number;
  busbwGBs: number;
  collective: string;
  scope: NcclRunScope;
  verdict?: NcclVerdict;
}

export interface PivotResult {
  rows: Array<{ at: number } & Record<string, number>>;
  /** Series names, sorted for stable colours. */
  series: string[];
}

/**
 * Pivot points into chart rows (sorted by time), one column per series. Points at the same
 * instant of the same series keep the last one; values that are not finite are left out.
 */
export function pivotBySeries(points: readonly TrendPoint[]): PivotResult {
  const byAt = new Map<number, { at: number } & Record<string, number>>();
  const names = new Set<string>();
  for (const p of points) {
    if (!Number.isFinite(p.busbwGBs)) continue;
    const name = ncclSeriesName(p);
    names.add(name);
    let row = byAt.get(p.at);
    if (!row) {
      row = { at: p.at } as { at: number } & Record<string, number>;
      byAt.set(p.at, row);
    }
    row[name] = p.busbwGBs;
  }
  return { rows: [...byAt.values()].sort((a, b) => a.at - b.at), series: [...names].sort() };
}

/** Runs → trend points: each run's headline at its time (runs without a headline are skipped). */
export function runsToPoints(runs: readonly NcclRunRow[]): TrendPoint[] {
  const out: TrendPoint[] = [];
  for (const r of runs) {
    if (r.peakBusbwGBs === null) continue;
    out.push({ at: r.at, busbwGBs: r.peakBusbwGBs, collective: r.collective, scope: r.scope, verdict: r.verdict });
  }
  return out;
}

/** Target per series (the latest run's target wins; series without one are absent). */
export function targetsBySeries(runs: readonly NcclRunRow[]): Record<string, number> {
  const seen = new Map<string, Set<number>>();
  for (const r of runs) {
    if (r.targetGBs === null) continue;
    const name = ncclSeriesName(r);
    seen.set(name, (seen.get(name) ?? new Set()).add(r.targetGBs));
  }
  // Runs of different hardware in one series have different targets: no single line is theirs.
  const out: Record<string, number> = {};
  for (const [name, targets] of seen) if (targets.size === 1) out[name] = [...targets][0]!;
  return out;
}

/** The most recent value of each series. */
export function latestBySeries(points: readonly TrendPoint[]): Record<string, number> {
  const out: Record<string, number> = {};
  const at: Record<string, number> = {};
  for (const p of points) {
    if (!Number.isFinite(p.busbwGBs)) continue;
    const name = ncclSeriesName(p);
    if (at[name] === undefined || p.at >= at[name]) {
      at[name] = p.at;
      out[name] = p.busbwGBs;
    }
  }
  return out;
}

/**
 * Y axis from 0 to a round number above every value and every target line, so a target above
 * the data (360 GB/s over runs at 72) is drawn inside the chart, not clipped away.
 */
export function busbwDomain(values: readonly number[], targets: readonly number[]): [number, number] {
  const top = Math.max(0, ...[...values, ...targets].filter(Number.isFinite));
  if (top === 0) return [0, 10];
  const step = top > 200 ? 50 : top > 50 ? 10 : top > 10 ? 5 : 1;
  return [0, Math.ceil((top * 1.05) / step) * step];
}

/** One point per message size for the busbw-vs-size chart; x is log2 of the size. */
export interface SizePoint {
  log2: number;
  sizeBytes: number;
  outOfPlace: number | null;
  inPlace: number | null;
}

/** The run's rows as size points (zero-byte rows have no place on a log axis and no bandwidth). */
export function sizePoints(rows: NcclRunDetailReply['rows']): SizePoint[] {
  return rows
    .filter((r) => r.sizeBytes > 0)
    .map((r) => ({
      log2: Math.log2(r.sizeBytes),
      sizeBytes: r.sizeBytes,
      outOfPlace: r.outOfPlace.busbwGBs,
      inPlace: r.inPlace.busbwGBs,
    }))
    .sort((a, b) => a.log2 - b.log2);
}

/** The x range of the "large messages" band the headline is read from (>= 1 GiB, else the largest size). */
export function largeMessageBand(points: readonly SizePoint[]): [number, number] | null {
  if (points.length === 0) return null;
  const last = points[points.length - 1]!.log2;
  return [Math.min(Math.log2(NCCL_LARGE_MESSAGE_BYTES), last), last];
}

/** A fixed palette that also differs in lightness, so lines stay distinguishable in greyscale. */
export const SERIES_COLOURS = ['#2563eb', '#d97706', '#059669', '#9333ea', '#dc2626', '#0891b2', '#4b5563', '#be185d'];
export const SERIES_DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '3 6'];
