import type { Severity, Verdict } from './findings.ts';
import {
  chooseNcclProfile,
  DEFAULT_NCCL_PROFILES,
  hardwareText,
  ncclScope,
  profileName,
  profileTarget,
  type NcclHardware,
  type NcclProfile,
  type NcclScope,
  type NcclTarget,
} from './nccl-targets.ts';

/**
 * nccl-tests verdicts. busbw is the number to compare with hardware (nccl-tests
 * doc/PERFORMANCE.md); the footer's `# Avg bus bandwidth` averages *all* sizes, small ones
 * included (`# Avg bus bandwidth : 70.742` on a 16-rank run whose 8 GiB row reaches 338.82), so
 * a run's headline is its peak busbw over every size, with the size it was measured at
 * ({@link peakBusbw}); the busbw of the largest size goes beside it ({@link largestBusbw}).
 *
 * Which figure does what:
 * - the target verdict and the host-staging band read the headline (the peak): what nccl-tests
 *   users quote, and what the run showed the fabric can carry;
 * - the regression baseline compares the largest size's busbw with the same figure of earlier
 *   runs: bandwidth-bound, and always measured at the same size, so a peak that moves between
 *   256 MiB and 8 GiB from run to run does not read as a change.
 */

/** Rows at least this large are "large messages" (1 GiB): where the charts start their large-message band. */
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
  /** The nodes the log describes ({@link ncclHardware}); without it no target applies. */
  hardware?: NcclHardware;
  /** Grouping for baselines: cluster, job, GPU type, nccl version... */
  labels: Record<string, string>;
}

export interface NcclOptions {
  /** The target table (default {@link DEFAULT_NCCL_PROFILES}; config adds IBWATCH_NCCL_TARGETS rows). */
  profiles?: readonly NcclProfile[];
  /** Multi-node peak inside this band is where staging through host memory lands on NDR nodes. */
  hostMemoryBandGBs?: [number, number];
  /** Previous runs (any labels/collective; filtered here) for the regression baseline. */
  history?: readonly NcclRun[];
  /** Median of the last N matching runs. Default 10; needs at least 3. */
  baselineRuns?: number;
  /** Regression when the largest size's busbw < this share of the baseline. Default 0.9. */
  regressionRatio?: number;
}

export interface NcclSummary {
  /** The headline: peak busbw over every size (0 without rows). */
  peakBusBwGBs: number;
  /** Message size of the peak (undefined without rows). */
  peakSizeBytes?: number;
  /** busbw of the largest size: what the regression baseline compares. */
  largestBusBwGBs?: number;
  largestSizeBytes?: number;
  avgBusBwGBs: number;
  /** Undefined when the node count is unknown: then no target applies. */
  scope?: NcclScope;
  target?: NcclTarget;
  /** The profile the target comes from, by name (`8x H100, 8x400G`). */
  profile?: string;
  /** Why no target applies, in words ("no target for this hardware: ..."). */
  noTarget?: string;
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

type BwRow = { sizeBytes: number; busbwGBs: number };
const measured = (rows: readonly BwRow[]) => rows.filter((r) => Number.isFinite(r.busbwGBs) && r.busbwGBs >= 0);

/**
 * The headline of a run: its peak busbw over every size, with the size it was measured at (the
 * larger size on a tie). Values that are not measurements (not finite, negative) are ignored;
 * `undefined` when none is left.
 */
export function peakBusbw(rows: readonly BwRow[]): { busbwGBs: number; sizeBytes: number } | undefined {
  let best: { busbwGBs: number; sizeBytes: number } | undefined;
  for (const r of measured(rows)) {
    if (!best || r.busbwGBs > best.busbwGBs || (r.busbwGBs === best.busbwGBs && r.sizeBytes > best.sizeBytes))
      best = { busbwGBs: r.busbwGBs, sizeBytes: r.sizeBytes };
  }
  return best;
}

/**
 * busbw at the largest size of the run (the better of the rows printed at that size), or
 * `undefined` when that size has no measurement: then there is no figure to compare, rather
 * than one read off a smaller size.
 */
export function largestBusbw(rows: readonly BwRow[]): { busbwGBs: number; sizeBytes: number } | undefined {
  if (rows.length === 0) return undefined;
  const size = Math.max(...rows.map((r) => r.sizeBytes));
  const at = measured(rows.filter((r) => r.sizeBytes === size));
  return at.length ? { busbwGBs: Math.max(...at.map((r) => r.busbwGBs)), sizeBytes: size } : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The target of a run from its hardware, or why it has none. */
function targetOf(
  run: NcclRun,
  collective: string,
  scope: NcclScope | undefined,
  profiles: readonly NcclProfile[],
): { target: NcclTarget; profile: string } | { noTarget: string } {
  if (!scope)
    return { noTarget: 'no target: the number of nodes is unknown (no rank lines in the log, no nodes label)' };
  const hw = run.hardware ?? {};
  if (scope === 'single-node') {
    // One host's traffic never leaves NVLink: its NICs do not matter, and only profiles that
    // state an NVLink figure for the collective can judge it.
    const nvlink = profiles.filter((p) => p.nvlink?.[collective] !== undefined);
    const one = chooseNcclProfile({ ...hw, nicsPerNode: undefined, nicGbps: undefined }, nvlink);
    const target = one.profile && profileTarget(one.profile, collective, scope);
    if (one.profile && target) return { target, profile: profileName(one.profile) };
    return { noTarget: `no single-node (NVLink) target for ${collective} on this hardware: ${hardwareText(hw)}` };
  }
  const choice = chooseNcclProfile(hw, profiles);
  if (!choice.profile) return { noTarget: choice.reason };
  const target = profileTarget(choice.profile, collective, scope);
  if (target) return { target, profile: profileName(choice.profile) };
  return {
    noTarget: `no target for ${collective} across nodes on ${hardwareText(hw)} (${profileName(choice.profile)})`,
  };
}

/**
 * Summarise one run and judge it. Verdict kinds (subject `run`):
 * - `nccl-below-target` (major; minor when within 10%): the peak under the target of its
 *   hardware profile for its collective and scope (no profile, no target, no verdict);
 * - `nccl-host-memory` (major): multi-node run whose own NCCL_DEBUG=INFO lines show GPUDirect
 *   RDMA off (`GPU Direct RDMA Disabled`, channels `via NET/IB/0` without `/GDRDMA`);
 * - `nccl-gdr-unknown` (minor): multi-node run with no GDR lines whose peak sits in the 50-100
 *   GB/s band where host staging lands, on hardware that should reach past it: a question for
 *   a rerun with NCCL_DEBUG=INFO, not a cause;
 * - `nccl-regression` (major): the largest size's busbw below `regressionRatio` x the median of
 *   the same figure over the last N runs with the same collective, node count and labels.
 */
export function evaluateNcclRun(run: NcclRun, opts: NcclOptions = {}): { summary: NcclSummary; verdicts: Verdict[] } {
  const collective = normaliseCollective(run.collective);
  const scope = ncclScope(run.nodes);
  const peak = peakBusbw(run.rows);
  const largest = largestBusbw(run.rows);
  const bw = peak?.busbwGBs ?? 0;
  const avg = run.avgBusBwGBs ?? (run.rows.length ? run.rows.reduce((s, r) => s + r.busbwGBs, 0) / run.rows.length : 0);
  const judged = targetOf(run, collective, scope, opts.profiles ?? DEFAULT_NCCL_PROFILES);
  const target = 'target' in judged ? judged.target : undefined;
  const summary: NcclSummary = {
    peakBusBwGBs: bw,
    avgBusBwGBs: avg,
    ...(peak ? { peakSizeBytes: peak.sizeBytes } : {}),
    ...(largest ? { largestBusBwGBs: largest.busbwGBs, largestSizeBytes: largest.sizeBytes } : {}),
    ...(scope ? { scope } : {}),
    ...('target' in judged ? { target: judged.target, profile: judged.profile } : { noTarget: judged.noTarget }),
  };
  const subject = { kind: 'run' as const, runId: run.id };
  const verdicts: Verdict[] = [];
  const what =
    run.nodes === undefined
      ? `${collective} on an unknown number of nodes`
      : `${collective} on ${run.nodes} node${run.nodes === 1 ? '' : 's'}`;

  if (target && peak && bw < target.minBusBwGBs) {
    const sev: Severity = bw >= 0.9 * target.minBusBwGBs ? 'minor' : 'major';
    verdicts.push({
      kind: 'nccl-below-target',
      severity: sev,
      subject,
      title:
        `${what}: peak busbw ${bw.toFixed(1)} GB/s is below the ${target.minBusBwGBs} GB/s target ` +
        `of ${target.note}`,
      short: `busbw ${bw.toFixed(0)}/${target.minBusBwGBs} GB/s`,
      evidence: {
        peakBusBwGBs: bw,
        targetGBs: target.minBusBwGBs,
        profile: target.note ?? '',
        scope: target.scope,
        collective,
      },
    });
  }
  const [lo, hi] = opts.hostMemoryBandGBs ?? [50, 100];
  if (scope === 'multi-node' && run.gdr === 'disabled') {
    verdicts.push({
      kind: 'nccl-host-memory',
      severity: 'major',
      subject,
      title: `${what} fell back to host memory: its NCCL_DEBUG=INFO lines show GPUDirect RDMA disabled`,
      short: 'host-memory fallback (no GDR)',
      evidence: { gdr: run.gdr, peakBusBwGBs: bw },
    });
  }
  // The band is only a hint where the hardware should reach well past it (or is not known).
  const bandMeansSomething = !target || (target.minBusBwGBs > hi && bw < target.minBusBwGBs);
  if (scope === 'multi-node' && run.gdr === 'unknown' && peak && bw >= lo && bw <= hi && bandMeansSomething) {
    verdicts.push({
      kind: 'nccl-gdr-unknown',
      severity: 'minor',
      subject,
      title:
        `${what}: peak busbw ${bw.toFixed(1)} GB/s is in the host-staging band (${lo}-${hi} GB/s); ` +
        'GDR state unknown: rerun with NCCL_DEBUG=INFO',
      short: 'host-staging band; GDR unknown',
      evidence: { gdr: run.gdr, peakBusBwGBs: bw, band: [lo, hi] },
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
        largestBusbw(h.rows) !== undefined,
    )
    .sort((a, b) => (a.finishedAt < b.finishedAt ? 1 : -1))
    .slice(0, n);
  if (same.length >= 3 && largest) {
    const base = median(same.map((h) => largestBusbw(h.rows)!.busbwGBs));
    const now = largest.busbwGBs;
    summary.baselineGBs = base;
    const ratio = opts.regressionRatio ?? 0.9;
    if (base > 0 && now < ratio * base) {
      verdicts.push({
        kind: 'nccl-regression',
        severity: 'major',
        subject,
        title:
          `${what}: busbw at the largest size ${now.toFixed(1)} GB/s is ${Math.round((1 - now / base) * 100)}% ` +
          `below the baseline ${base.toFixed(1)} GB/s`,
        short: `busbw -${Math.round((1 - now / base) * 100)}% vs baseline`,
        evidence: { largestBusBwGBs: now, baselineGBs: base, runs: same.length, ratio },
      });
    }
  }
  return { summary, verdicts };
}

/** Marks on a run besides its verdict: each with one word on every page, in the CSV and the CLI. */
export type NcclFlag = 'regression' | 'gdr-off' | 'gdr-unknown';

export const NCCL_FLAG_WORDS: Record<NcclFlag, string> = {
  regression: 'regression',
  'gdr-off': 'GDR off (host-memory fallback)',
  'gdr-unknown': 'host-staging band; GDR unknown',
};

/**
 * The stored verdict and flags of a run from its summary and verdict kinds. GDR off (from the
 * log's lines) outranks the target; without a target there is no pass or fail.
 */
export function ncclOutcome(
  summary: Pick<NcclSummary, 'target'>,
  verdicts: readonly Pick<Verdict, 'kind'>[],
): { verdict: 'pass' | 'fail' | 'host-memory-fallback' | 'unknown'; flags: NcclFlag[] } {
  const kinds = new Set(verdicts.map((v) => v.kind));
  const verdict = kinds.has('nccl-host-memory')
    ? 'host-memory-fallback'
    : kinds.has('nccl-below-target')
      ? 'fail'
      : summary.target
        ? 'pass'
        : 'unknown';
  const flags: NcclFlag[] = [];
  if (kinds.has('nccl-regression')) flags.push('regression');
  if (kinds.has('nccl-host-memory')) flags.push('gdr-off');
  if (kinds.has('nccl-gdr-unknown')) flags.push('gdr-unknown');
  return { verdict, flags };
}

/** GDR state in one word, the same on the page, in the CSV and in the CLI. */
export function gdrWord(gdr: string): 'on' | 'off' | 'partly off' | 'unknown' {
  return gdr === 'enabled' ? 'on' : gdr === 'disabled' ? 'off' : gdr === 'mixed' ? 'partly off' : 'unknown';
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
