/**
 * What an nccl-tests upload says about itself, checked against the log: the run's time window
 * (uploads can be backdated, within reason) and the labels (a `nodes=2` label on a one-host log
 * is a mistake worth saying out loud, and the log wins).
 */
import type { NcclRun } from '@ibwatch/parsers';
import type { NcclRunRow } from '@ibwatch/fabric';

/** The labels an uploader gives a run: the API's own type (packages/fabric). */
export type NcclLabels = NcclRunRow['labels'];

/**
 * When the run happened, if the uploader knows (epoch ms): the run is dated by startedAt, else
 * finishedAt, else its import; see `resolveWindow`.
 */
export interface NcclWindow {
  startedAt?: number;
  finishedAt?: number;
}

const HOUR = 3_600_000;
/** Epoch ms of 2000-01-01T00:00:00Z: earlier times are seconds sent as milliseconds, or zero. */
export const EARLIEST_RUN_MS = 946_684_800_000;
/** How far past the collector's clock a run may end (clock skew between hosts). */
export const FUTURE_SLACK_MS = 15 * 60_000;
/** The longest window a run may claim: findings in it are the run's suspects. */
export const MAX_WINDOW_MS = 24 * HOUR;

/** ISO 8601 of epoch ms, or a plain note when the Date range (±8.64e15 ms) cannot hold it. */
const iso = (ms: number) => (Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : 'beyond any date');

/**
 * Problems with an uploaded window (epoch ms), each naming its field; empty when it is usable.
 * Times must be after 2000, not in the future, start no later than they finish, at most 24 h apart.
 */
export function windowProblems(w: NcclWindow, now: number): string[] {
  const problems: string[] = [];
  for (const field of ['startedAt', 'finishedAt'] as const) {
    const v = w[field];
    if (v === undefined) continue;
    if (!Number.isInteger(v)) problems.push(`${field} ${v} is not an integer number of epoch milliseconds`);
    else if (v < EARLIEST_RUN_MS)
      problems.push(`${field} ${v} is before 2000-01-01 (${iso(v)}): epoch milliseconds expected, not seconds`);
    else if (v > now + FUTURE_SLACK_MS) problems.push(`${field} ${v} (${iso(v)}) is in the future`);
  }
  if (problems.length > 0 || w.startedAt === undefined || w.finishedAt === undefined) return problems;
  if (w.startedAt > w.finishedAt)
    problems.push(`startedAt ${iso(w.startedAt)} is after finishedAt ${iso(w.finishedAt)}`);
  else if (w.finishedAt - w.startedAt > MAX_WINDOW_MS)
    problems.push(
      `startedAt..finishedAt spans ${((w.finishedAt - w.startedAt) / HOUR).toFixed(1)} h; a ` +
        `run's window is at most 24 h`,
    );
  return problems;
}

/**
 * The run's time (`at`) and window from what the uploader gave: `at` is its startedAt, else its
 * finishedAt, else the import time; a missing end is an hour after the start (or the import,
 * when sooner), a missing start an hour before the end.
 */
export function resolveWindow(
  w: NcclWindow,
  importedAt: number,
): { at: number; startedAt: number; finishedAt: number } {
  if (w.startedAt !== undefined) {
    const finishedAt = w.finishedAt ?? Math.min(w.startedAt + HOUR, Math.max(w.startedAt, importedAt));
    return { at: w.startedAt, startedAt: w.startedAt, finishedAt };
  }
  const finishedAt = w.finishedAt ?? importedAt;
  return { at: finishedAt, startedAt: finishedAt - HOUR, finishedAt };
}

/** Letters and digits only, lower case: `NVIDIA H100 80GB HBM3` → `nvidiah10080gbhbm3`. */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The node count to judge the run by, and warnings where a label contradicts the log. The log's
 * rank lines win over the `nodes` label: a one-host run rides NVLink and must not be judged
 * against the inter-node target whatever the label says.
 */
export function checkLabels(run: NcclRun, labels: NcclLabels): { nodes: number | undefined; warnings: string[] } {
  const warnings: string[] = [];
  const fromLog = run.hosts.length > 0 ? run.hosts.length : undefined;
  if (fromLog !== undefined && labels.nodes !== undefined && labels.nodes !== fromLog) {
    const hosts = run.hosts.length <= 4 ? ` (${run.hosts.join(', ')})` : '';
    warnings.push(
      `label nodes=${labels.nodes} contradicts the log: its rank lines name ${fromLog} ` +
        `host${fromLog === 1 ? '' : 's'}${hosts}; judged as ${fromLog} node${fromLog === 1 ? '' : 's'}`,
    );
  }
  if (labels.gpuModel !== undefined && run.gpuModels.length > 0) {
    const want = squash(labels.gpuModel);
    if (want !== '' && !run.gpuModels.some((m) => squash(m).includes(want)))
      warnings.push(`label gpuModel=${labels.gpuModel} contradicts the log: its GPUs are ${run.gpuModels.join(', ')}`);
  }
  if (labels.hcaCount !== undefined && run.ibDevices.length > 0) {
    const host = run.ibDevices[0]!.host;
    const hcas = new Set(run.ibDevices.filter((d) => d.host === host).map((d) => d.device));
    if (hcas.size !== labels.hcaCount)
      warnings.push(
        `label hcaCount=${labels.hcaCount} contradicts the log: NCCL used ${hcas.size} ` +
          `HCA${hcas.size === 1 ? '' : 's'}${host ? ` on ${host}` : ''} (${[...hcas].join(', ')})`,
      );
  }
  return { nodes: fromLog ?? labels.nodes, warnings };
}
