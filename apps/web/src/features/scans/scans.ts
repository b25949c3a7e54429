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

/**
 * The form's "run started at" (a `datetime-local` value, the browser's time zone) → the upload's
 * `startedAt` in epoch ms; blank means "now" (undefined). A time in the future is refused.
 */
export function buildRunStart(value: string, now: number): { startedAt?: number; error?: string } {
  const v = value.trim();
  if (!v) return {};
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(v) ? new Date(v).getTime() : Number.NaN;
  if (!Number.isFinite(ms)) return { error: `run start "${v}" is not a date and time` };
  if (ms > now + 15 * 60_000) return { error: `run start ${v} is in the future` };
  return { startedAt: ms };
}

/** The warnings of an import reply (`scan.warnings`), whatever else the reply holds. */
export function replyWarnings(reply: unknown): string[] {
  const scan = reply && typeof reply === 'object' ? (reply as { scan?: { warnings?: unknown } }).scan : undefined;
  return Array.isArray(scan?.warnings) ? scan.warnings.filter((w): w is string => typeof w === 'string') : [];
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
