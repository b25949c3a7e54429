/**
 * The bandwidth report and the small rules every view of nccl-tests runs shares, so that the
 * table, the charts, the sparkline, the report and its CSV say the same thing: one figure per
 * run (its headline, the large-message peak busbw), one series per collective and scope, and a
 * pass rate over the runs that had a target.
 */
import type { BandwidthReport, NcclRunRow, NcclRunScope, NcclVerdict, Severity } from './api.ts';
import { NCCL_FLAG_WORDS, type NcclFlag } from './nccl.ts';
import { worseSeverity } from './finding-lifecycle.ts';

/** Only what the report reads of a run. */
export type ReportRun = Pick<NcclRunRow, 'collective' | 'scope' | 'peakBusbwGBs' | 'targetGBs' | 'verdict'>;

/**
 * The series a run belongs to in every chart and report row: its collective, qualified when it
 * ran on one host (judged against NVLink, not the fabric) or on an unknown number of hosts.
 */
export function ncclSeriesName(run: { collective: string; scope: NcclRunScope }): string {
  if (run.scope === 'multi-node') return run.collective;
  return `${run.collective} (${run.scope === 'single-node' ? 'single node' : 'nodes unknown'})`;
}

/** GB/s to one decimal, as every view prints it (`287.03999999999996` → `287`). */
export function roundGBs(x: number): number {
  return Math.round(x * 10) / 10;
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

/** The verdict as every view writes it (page badge, CSV, CLI). */
export const NCCL_VERDICT_WORDS: Record<NcclVerdict, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  'host-memory-fallback': 'HOST-MEMORY FALLBACK',
  unknown: 'UNKNOWN',
};

/** A run's flags in words, `; `-separated (empty when none). */
export function ncclFlagsText(flags: readonly NcclFlag[]): string {
  return flags.map((f) => NCCL_FLAG_WORDS[f]).join('; ');
}

/** "ranks unknown" rather than a count the log never printed. */
export function ranksText(ranks: number | null): string {
  return ranks === null ? 'ranks unknown' : `${ranks} rank${ranks === 1 ? '' : 's'}`;
}

/** The hardware a run was judged as: `8x NVIDIA H100 80GB HBM3 per node, 8 NICs at 400 Gb/s`. */
export function runHardwareText(r: Pick<NcclRunRow, 'gpuModel' | 'gpusPerNode' | 'nicsPerNode' | 'nicGbps'>): string {
  const gpu = r.gpuModel ?? 'GPU model unknown';
  const per = r.gpusPerNode === null ? '' : `${r.gpusPerNode}x `;
  const nics =
    r.nicsPerNode === null
      ? ''
      : `, ${r.nicsPerNode} NIC${r.nicsPerNode === 1 ? '' : 's'}${r.nicGbps ? ` at ${r.nicGbps} Gb/s` : ''}`;
  return `${per}${gpu}${r.gpusPerNode === null ? '' : ' per node'}${nics}`;
}

/** The target a run was judged against with its profile, or why none applies. */
export function runTargetText(r: Pick<NcclRunRow, 'targetGBs' | 'targetProfile' | 'targetNote' | 'scope'>): string {
  if (r.targetGBs === null) return r.targetNote ?? 'no target';
  const nvlink = r.scope === 'single-node' ? ' on one node (NVLink)' : '';
  return `${roundGBs(r.targetGBs).toFixed(1)} GB/s${nvlink} (profile ${r.targetProfile ?? 'unnamed'})`;
}

/** "3 of 5 runs had a target; 2 met it" (or why there is no pass rate). */
export function passRateText(r: Pick<BandwidthReport, 'runs' | 'withTarget' | 'passed'>): string {
  const runs = `${r.runs} run${r.runs === 1 ? '' : 's'}`;
  if (r.runs === 0) return 'No run in this period.';
  if (r.withTarget === 0) return `None of the ${runs} had a target: no pass rate.`;
  const had = r.withTarget === r.runs ? `All ${runs} had a target` : `${r.withTarget} of ${runs} had a target`;
  return `${had}; ${r.passed} met it.`;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The period report managers review: per collective and scope the runs, how many had a target
 * and met it, and the best/median/worst headline busbw; the fabric's most frequent findings, each
 * kind at the worst severity any of them had (pass each finding's peak severity).
 */
export function bandwidthReport(
  runs: readonly ReportRun[],
  issues: readonly { kind: string; title: string; severity: Severity }[],
  from: number,
  to: number,
): BandwidthReport {
  const groups = new Map<string, ReportRun[]>();
  for (const r of runs) {
    const key = `${r.collective}\u0000${r.scope}`;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const judged = (rs: readonly ReportRun[]) => rs.filter((r) => r.targetGBs !== null);
  const passed = (rs: readonly ReportRun[]) => rs.filter((r) => r.targetGBs !== null && r.verdict === 'pass').length;
  const counts = new Map<string, { kind: string; title: string; count: number; severity: Severity }>();
  for (const f of issues) {
    const c = counts.get(f.kind) ?? { kind: f.kind, title: f.title, count: 0, severity: f.severity };
    c.count++;
    c.severity = worseSeverity(c.severity, f.severity);
    counts.set(f.kind, c);
  }
  const withTarget = judged(runs).length;
  return {
    from,
    to,
    runs: runs.length,
    withTarget,
    passed: passed(runs),
    passRate: withTarget ? passed(runs) / withTarget : null,
    byCollective: [...groups.values()]
      .map((rs) => {
        const bw = rs.map((r) => r.peakBusbwGBs).filter((x): x is number => x !== null && Number.isFinite(x));
        return {
          collective: rs[0]!.collective,
          scope: rs[0]!.scope,
          runs: rs.length,
          withTarget: judged(rs).length,
          passed: passed(rs),
          bestGBs: bw.length ? Math.max(...bw) : null,
          medianGBs: median(bw),
          worstGBs: bw.length ? Math.min(...bw) : null,
          // One target for the group, or none when its runs ran on hardware with different ones.
          targetGBs: new Set(judged(rs).map((r) => r.targetGBs)).size === 1 ? judged(rs)[0]!.targetGBs : null,
        };
      })
      .sort((a, b) => ncclSeriesName(a).localeCompare(ncclSeriesName(b))),
    topFabricIssues: [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 10),
  };
}
