import type { NcclRunRow, ScanRow } from '@ibwatch/fabric';

/** Labels sent with an nccl-tests import; numbers are parsed from the form's text fields. */
export type NcclLabels = NcclRunRow['labels'];

/**
 * Form fields → the `labels` of POST /api/nccl-runs. Blank fields are left out, numbers must be
 * positive integers; returns the problems found instead of guessing.
 */
export function buildNcclLabels(f: Record<'cluster' | 'nodes' | 'gpuModel' | 'hcaCount' | 'runBy', string>): {
  labels: NcclLabels;
  errors: string[];
} {
  const labels: NcclLabels = {};
  const errors: string[] = [];
  if (f.cluster.trim()) labels.cluster = f.cluster.trim();
  if (f.gpuModel.trim()) labels.gpuModel = f.gpuModel.trim();
  if (f.runBy.trim()) labels.runBy = f.runBy.trim();
  for (const key of ['nodes', 'hcaCount'] as const) {
    const v = f[key].trim();
    if (!v) continue;
    if (!/^\d+$/.test(v) || Number(v) <= 0) errors.push(`${key} must be a positive whole number, got "${v}"`);
    else labels[key] = Number(v);
  }
  return { labels, errors };
}

/** True while any scan is still running (the page then polls faster). */
export function anyRunning(scans: readonly ScanRow[]): boolean {
  return scans.some((s) => s.status === 'running');
}

/** Summary map → short `key=value` text for the table. */
export function summaryText(summary: ScanRow['summary']): string {
  return Object.entries(summary)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? v.toLocaleString('en-US') : v}`)
    .join(' · ');
}
