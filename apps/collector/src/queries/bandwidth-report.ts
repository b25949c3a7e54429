import {
  bandwidthReport,
  formatBytes,
  gdrWord,
  NCCL_VERDICT_WORDS,
  ncclFlagsText,
  roundGBs,
  runTargetText,
  type BandwidthReport,
  type NcclRunRow,
} from '@ibwatch/fabric';
import { toCsv } from '../csv.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import type { Db } from '../db/open-db.ts';

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const gbs = (x: number | null) => (x === null ? '' : roundGBs(x).toFixed(1));

const size = (x: number | null) => (x === null ? '' : formatBytes(x));

/**
 * The runs of a period as CSV, one row per run, newest first, with the figures and words the
 * Bandwidth page and `ibwatch nccl` show: the peak busbw and its size (the headline), the largest
 * size's busbw (what regressions compare), the target and the profile it comes from or why there
 * is none, the verdict, GDR state and flags.
 */
export function bandwidthRunsCsv(runs: readonly NcclRunRow[], from: number, to: number): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  return toCsv(
    [
      'period_from',
      'period_to',
      'run_id',
      'time',
      'test',
      'hosts',
      'ranks',
      'gpu_model',
      'gpus_per_node',
      'peak_busbw_GBs',
      'peak_size',
      'largest_size_busbw_GBs',
      'largest_size',
      'target_GBs',
      'target_profile',
      'target',
      'verdict',
      'gdr',
      'flags',
    ],
    runs.map((r) => [
      iso(from),
      iso(to),
      r.id,
      iso(r.at),
      `${r.collective}_perf`,
      r.nodes ?? '',
      r.ranks ?? 'unknown',
      r.gpuModel ?? '',
      r.gpusPerNode ?? '',
      gbs(r.peakBusbwGBs),
      size(r.peakSizeBytes),
      gbs(r.largestBusbwGBs),
      size(r.largestSizeBytes),
      gbs(r.targetGBs),
      r.targetProfile ?? '',
      runTargetText(r),
      NCCL_VERDICT_WORDS[r.verdict],
      gdrWord(r.gdr),
      ncclFlagsText(r.flags),
    ]),
  );
}

/**
 * The period summary as CSV (`?summary=1`): one row per collective and scope, GB/s to one decimal, and the period on
 * every row (a spreadsheet pasted into a review keeps what it covers).
 */
export function bandwidthCsv(r: BandwidthReport): string {
  const from = new Date(r.from).toISOString();
  const to = new Date(r.to).toISOString();
  return toCsv(
    [
      'period_from',
      'period_to',
      'collective',
      'scope',
      'runs',
      'runs_with_target',
      'passed',
      'pass_rate',
      'best_GBs',
      'median_GBs',
      'worst_GBs',
      'target_GBs',
    ],
    r.byCollective.map((c) => [
      from,
      to,
      c.collective,
      c.scope ?? 'unknown',
      c.runs,
      c.withTarget,
      c.passed,
      c.withTarget ? (c.passed / c.withTarget).toFixed(3) : '',
      gbs(c.bestGBs),
      gbs(c.medianGBs),
      gbs(c.worstGBs),
      gbs(c.targetGBs),
    ]),
  );
}

/**
 * The bandwidth report for a period (default: the 7 days up to now), by the time runs happened,
 * with the fabric findings open during it as suspects.
 */
export function bandwidthReporter(db: Db): (q: { from?: number; to?: number }) => BandwidthReport {
  const nccl = createNcclRepo(db);
  const findings = createFindingsRepo(db);
  return (q) => {
    const to = q.to ?? Date.now();
    const from = q.from ?? to - 7 * 86_400_000;
    return bandwidthReport(
      nccl.reportRuns(from, to),
      // At its peak: a finding critical at 00:45 and major later was critical in this period.
      findings
        .openDuring(from, to, ['port', 'link', 'sm', 'fabric'])
        .map((f) => ({ kind: f.kind, title: f.title, severity: f.peakSeverity })),
      from,
      to,
    );
  };
}
