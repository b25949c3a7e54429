import type { Severity, Verdict } from './findings.ts';

/**
 * nccl-tests verdicts. busbw is the number to compare with hardware (nccl-tests
 * doc/PERFORMANCE.md); the footer's `# Avg bus bandwidth` averages *all* sizes, small ones
 * included (`# Avg bus bandwidth : 70.742` on a 16-rank run whose 8 GiB row reaches 338.82), so
 * a run's one headline figure is the peak busbw over large messages ({@link headlineBusbw}):
 * the number nccl-tests users quote, and the one every verdict, table, chart and report uses.
 */

/** Rows at least this large are "large messages" (1 GiB); a run without any uses its largest size. */
export const NCCL_LARGE_MESSAGE_BYTES = 2 ** 30;

/**
 * The highest busbw (GB/s) taken as a measurement. busbw is per GPU and bounded by its fastest
 * link: NVLink 6 carries 1,800 GB/s each way, and in-switch reduction (NVLS, SHARP) can lift an
 * all_reduce busbw up to twice the link. Anything above this is a broken or forged log
 * (`1e308`, `999999`), never a fabric; override with `IBWATCH_NCCL_MAX_BUSBW_GBS`.
 */
export const NCCL_MAX_BUSBW_GBS = 4000;

export type GdrStatus = 'enabled' | 'disabled' | 'unknown';

/** Minimal run shape, independent of the parser's type. */
export interface NcclRun {
  id: string;
  /** `all_reduce`, `all_gather`, `reduce_scatter`, `alltoall`, ... (`_perf` suffix accepted). */
  collective: string;
  /** Hosts the run spanned; unknown (no rank lines, no label) means no target applies. */
  nodes: number | undefined;
  startedAt: string;
  finishedAt: string;
  /** One row per size (take the better of out-of-place/in-place if you like). GB = 1e9 bytes. */
  rows: { sizeBytes: number; busbwGBs: number }[];
  /** The footer's `# Avg bus bandwidth`, when printed. */
  avgBusBwGBs?: number;
  /** From NCCL INFO: `/GDRDMA` on NET/IB channel lines, `GPU Direct RDMA Enabled|Disabled for HCA`. */
  gdr: GdrStatus;
  /** Grouping for baselines: cluster, job, GPU type, nccl version... */
  labels: Record<string, string>;
}

export type NcclScope = 'single-node' | 'multi-node';

/** Scope from the node count: a run on one host rides NVLink, never the fabric. */
export function ncclScope(nodes: number | null | undefined): NcclScope | undefined {
  if (nodes === undefined || nodes === null || !(nodes >= 1)) return undefined;
  return nodes > 1 ? 'multi-node' : 'single-node';
}

/** Target busbw per collective and scope, in GB/s. */
export interface NcclTarget {
  collective: string;
  scope: NcclScope;
  minBusBwGBs: number;
  note?: string;
}

/**
 * Defaults for H100/H200 nodes with 8x400G NDR (one rail per GPU). Multi-node busbw is
 * bounded by the NICs (8 x 400 Gb/s = 400 GB/s line rate per GPU pair set; ~360 is what good
 * fabrics reach); single-node all_reduce rides NVLink (~460-480 GB/s on H100). Override for
 * other hardware.
 */
export const DEFAULT_NCCL_TARGETS: readonly NcclTarget[] = [
  { collective: 'all_reduce', scope: 'multi-node', minBusBwGBs: 360, note: '8x400G NDR, H100' },
  { collective: 'all_reduce', scope: 'single-node', minBusBwGBs: 460, note: 'H100 NVLink' },
  { collective: 'all_gather', scope: 'multi-node', minBusBwGBs: 340 },
  { collective: 'reduce_scatter', scope: 'multi-node', minBusBwGBs: 340 },
  { collective: 'all_gather', scope: 'single-node', minBusBwGBs: 360 },
  { collective: 'reduce_scatter', scope: 'single-node', minBusBwGBs: 360 },
  { collective: 'alltoall', scope: 'multi-node', minBusBwGBs: 40, note: 'bisection-bound; fabric-size dependent' },
  { collective: 'sendrecv', scope: 'multi-node', minBusBwGBs: 40, note: 'one 400G NIC ~ 48 GB/s' },
];

export interface NcclOptions {
  targets?: readonly NcclTarget[];
  /** Rows at least this large count as "large messages". Default 1 GiB; falls back to the largest size. */
  largeMessageBytes?: number;
  /** Multi-node large-message peak inside this band suggests staging through host memory. */
  hostMemoryBandGBs?: [number, number];
  /** Previous runs (any labels/collective; filtered here) for the regression baseline. */
  history?: readonly NcclRun[];
  /** Median of the last N matching runs. Default 10; needs at least 3. */
  baselineRuns?: number;
  /** Regression when peak < this share of the baseline. Default 0.9. */
  regressionRatio?: number;
}

export interface NcclSummary {
  peakBusBwGBs: number;
  /** Peak over large messages: the run's headline (what verdicts use). */
  largePeakBusBwGBs: number;
  /** Message size of the row the headline comes from (undefined without rows). */
  largePeakSizeBytes?: number;
  avgBusBwGBs: number;
  /** Undefined when the node count is unknown: then no target applies. */
  scope?: NcclScope;
  target?: NcclTarget;
  baselineGBs?: number;
}

/** Strip `_perf` and normalise `allreduce` → `all_reduce`. */
export function normaliseCollective(c: string): string {
  const s = c.toLowerCase().replace(/_perf$/, '');
  const alias: Record<string, string> = {
    allreduce: 'all_reduce',
    allgather: 'all_gather',
    reducescatter: 'reduce_scatter',
    all_to_all: 'alltoall',
  };
  return alias[s] ?? s;
}

function labelsEqual(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * The headline of a run: the peak busbw over rows of at least `minBytes` (1 GiB), or over the
 * rows of the largest size when none is that large, with the size it was measured at. Values
 * that are not measurements (not finite, negative) are ignored; `undefined` when none is left.
 */
export function headlineBusbw(
  rows: readonly { sizeBytes: number; busbwGBs: number }[],
  minBytes = NCCL_LARGE_MESSAGE_BYTES,
): { busbwGBs: number; sizeBytes: number } | undefined {
  if (rows.length === 0) return undefined;
  // The floor comes from every row: a run whose large rows are unusable has no headline, rather
  // than one read off its small messages.
  const floor = Math.min(minBytes, Math.max(...rows.map((r) => r.sizeBytes)));
  let best: { busbwGBs: number; sizeBytes: number } | undefined;
  for (const r of rows) {
    if (r.sizeBytes < floor || !Number.isFinite(r.busbwGBs) || r.busbwGBs < 0) continue;
    if (!best || r.busbwGBs > best.busbwGBs) best = { busbwGBs: r.busbwGBs, sizeBytes: r.sizeBytes };
  }
  return best;
}

function largePeak(run: NcclRun, minBytes: number): number {
  return headlineBusbw(run.rows, minBytes)?.busbwGBs ?? 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Summarise one run and judge it. Verdict kinds (subject `run`):
 * - `nccl-below-target` (major; minor when within 10%): large-message peak under the target
 *   for its collective and scope.
 * - `nccl-host-memory` (major): multi-node run with GDR disabled ("fell back to host memory"),
 *   or GDR unknown/enabled but the large-message peak sits in the 50-100 GB/s band typical of
 *   staging through host memory.
 * - `nccl-regression` (major): peak below `regressionRatio` x the median of the last N runs with
 *   the same collective, node count and labels.
 */
export function evaluateNcclRun(run: NcclRun, opts: NcclOptions = {}): { summary: NcclSummary; verdicts: Verdict[] } {
  const collective = normaliseCollective(run.collective);
  const scope = ncclScope(run.nodes);
  const minBytes = opts.largeMessageBytes ?? NCCL_LARGE_MESSAGE_BYTES;
  const peak = run.rows.length ? Math.max(...run.rows.map((r) => r.busbwGBs)) : 0;
  const headline = headlineBusbw(run.rows, minBytes);
  const large = headline?.busbwGBs ?? 0;
  const avg = run.avgBusBwGBs ?? (run.rows.length ? run.rows.reduce((s, r) => s + r.busbwGBs, 0) / run.rows.length : 0);
  const target = scope
    ? (opts.targets ?? DEFAULT_NCCL_TARGETS).find((t) => t.collective === collective && t.scope === scope)
    : undefined;
  const summary: NcclSummary = {
    peakBusBwGBs: peak,
    largePeakBusBwGBs: large,
    avgBusBwGBs: avg,
    ...(headline ? { largePeakSizeBytes: headline.sizeBytes } : {}),
    ...(scope ? { scope } : {}),
    ...(target ? { target } : {}),
  };
  const subject = { kind: 'run' as const, runId: run.id };
  const verdicts: Verdict[] = [];
  const what =
    run.nodes === undefined
      ? `${collective} on an unknown number of nodes`
      : `${collective} on ${run.nodes} node${run.nodes === 1 ? '' : 's'}`;

  if (target && large < target.minBusBwGBs) {
    const sev: Severity = large >= 0.9 * target.minBusBwGBs ? 'minor' : 'major';
    verdicts.push({
      kind: 'nccl-below-target',
      severity: sev,
      subject,
      title: `${what}: busbw ${large.toFixed(1)} GB/s is below the ${target.minBusBwGBs} GB/s target`,
      short: `busbw ${large.toFixed(0)}/${target.minBusBwGBs} GB/s`,
      evidence: { largePeakBusBwGBs: large, targetGBs: target.minBusBwGBs, scope: target.scope, collective },
    });
  }
  const [lo, hi] = opts.hostMemoryBandGBs ?? [50, 100];
  if (scope === 'multi-node' && (run.gdr === 'disabled' || (large >= lo && large <= hi))) {
    const why =
      run.gdr === 'disabled'
        ? 'GPUDirect RDMA is disabled'
        : `large-message busbw ${large.toFixed(1)} GB/s is in the ${lo}-${hi} GB/s host-memory band`;
    verdicts.push({
      kind: 'nccl-host-memory',
      severity: 'major',
      subject,
      title: `${what} fell back to host memory: ${why}`,
      short: 'host-memory fallback (no GDR)',
      evidence: { gdr: run.gdr, largePeakBusBwGBs: large, band: [lo, hi] },
    });
  }
  const n = opts.baselineRuns ?? 10;
  const same = (opts.history ?? [])
    .filter(
      (h) =>
        h.id !== run.id &&
        normaliseCollective(h.collective) === collective &&
        h.nodes === run.nodes &&
        labelsEqual(h.labels, run.labels) &&
        h.finishedAt < run.startedAt &&
        headlineBusbw(h.rows, minBytes) !== undefined,
    )
    .sort((a, b) => (a.finishedAt < b.finishedAt ? 1 : -1))
    .slice(0, n);
  if (same.length >= 3) {
    const base = median(same.map((h) => largePeak(h, minBytes)));
    summary.baselineGBs = base;
    const ratio = opts.regressionRatio ?? 0.9;
    if (base > 0 && large < ratio * base) {
      verdicts.push({
        kind: 'nccl-regression',
        severity: 'major',
        subject,
        title:
          `${what}: busbw ${large.toFixed(1)} GB/s is ${Math.round((1 - large / base) * 100)}% ` +
          `below the baseline ${base.toFixed(1)} GB/s`,
        short: `busbw -${Math.round((1 - large / base) * 100)}% vs baseline`,
        evidence: { largePeakBusBwGBs: large, baselineGBs: base, runs: same.length, ratio },
      });
    }
  }
  return { summary, verdicts };
}

/** A fabric finding with its open window (lastSeen or resolvedAt; open-ended when still open). */
export interface TimedFinding {
  firstSeen: string;
  resolvedAt?: string;
  lastSeen?: string;
  state?: string;
}

/** Findings whose window overlaps the run's [startedAt, finishedAt]: suspects for a slow run. */
export function findingsDuringRun<T extends TimedFinding>(
  run: Pick<NcclRun, 'startedAt' | 'finishedAt'>,
  findings: readonly T[],
): T[] {
  const s = Date.parse(run.startedAt);
  const e = Date.parse(run.finishedAt);
  return findings.filter((f) => {
    const from = Date.parse(f.firstSeen);
    const to = f.resolvedAt
      ? Date.parse(f.resolvedAt)
      : f.state === 'resolved' && f.lastSeen
        ? Date.parse(f.lastSeen)
        : Infinity;
    return from <= e && to >= s;
  });
}
