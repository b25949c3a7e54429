/**
 * Pure helpers for the bandwidth views: the report period in the URL, API/CSV paths, and
 * formatting of bandwidth, percentages, node counts and GDR status.
 */
import type { QueryString } from '@ibwatch/fabric';
import { gdrWord, type FindingRow, type NcclRunDetailReply, type NcclRunRow } from '@ibwatch/fabric';
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

export const reportApiPath = (r: ReportRange): `/api/reports/bandwidth${QueryString}` =>
  `/api/reports/bandwidth${serializeQuery({ from: r.from, to: r.to })}`;
export const reportCsvHref = (r: ReportRange): string =>
  `/api/reports/bandwidth.csv${serializeQuery({ from: r.from, to: r.to })}`;

export function runsApiPath(r: ReportRange, collective: string | undefined): `/api/nccl/runs${QueryString}` {
  return `/api/nccl/runs${serializeQuery({ collective, from: r.from, to: r.to })}`;
}

/** `0.8123` → `81.2 %`. */
export function formatPct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '—';
}

export function formatGBs(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x.toFixed(1)} GB/s`;
}

/** A run's node count, `?` when neither its log nor its labels say. */
export function nodesText(r: Pick<NcclRunRow, 'nodes'>): string {
  return r.nodes === null ? '?' : String(r.nodes);
}

/** GDR state in the word the CSV and CLI use (`on`, `off`, `partly off`, `unknown`) with an icon. */
export function gdrText(gdr: NcclRunRow['gdr']): string {
  const word = gdrWord(gdr);
  return `${word === 'on' ? '●' : word === 'off' ? '✖' : '◆'} ${word}`;
}

/** Runs whose own NCCL_DEBUG lines show GPUDirect RDMA off (host-memory fallback): shown loudly. */
export function hostMemoryFallbacks(runs: readonly NcclRunRow[]): NcclRunRow[] {
  return runs.filter((r) => r.verdict === 'host-memory-fallback');
}

/** Runs in the host-staging band with no GDR lines: a rerun with NCCL_DEBUG=INFO will tell. */
export function gdrUnknownRuns(runs: readonly NcclRunRow[]): NcclRunRow[] {
  return runs.filter((r) => r.flags.includes('gdr-unknown'));
}

/** Distinct collectives, sorted. */
export function collectivesOf(runs: readonly NcclRunRow[]): string[] {
  return [...new Set(runs.map((r) => r.collective))].sort();
}

/** What target a run was judged against and the hardware profile it comes from, or why none applies. */
export function targetText(
  r: Pick<NcclRunRow, 'targetGBs' | 'collective' | 'scope' | 'targetProfile' | 'targetNote'>,
): string {
  const on = r.scope === 'single-node' ? 'on one node, over NVLink' : 'across nodes, over the fabric';
  if (r.targetGBs !== null)
    return `${formatGBs(r.targetGBs)} for ${r.collective} ${on}; hardware profile ${r.targetProfile ?? 'unnamed'}`;
  return r.targetNote ?? 'no target';
}

/** The correlated findings by where they are: on the run's paths, the subnet manager's, the run's own. */
export function splitCorrelated(rows: readonly FindingRow[]): {
  onPath: FindingRow[];
  subnet: FindingRow[];
  own: FindingRow[];
} {
  return {
    onPath: rows.filter((f) => f.subjectType === 'port' || f.subjectType === 'link' || f.subjectType === 'fabric'),
    subnet: rows.filter((f) => f.subjectType === 'sm'),
    own: rows.filter((f) => f.subjectType === 'run'),
  };
}

/** One sentence on which part of the fabric the run's findings were looked for in. */
export function correlationText(d: Pick<NcclRunDetailReply, 'correlation' | 'run'>): string {
  const c = d.correlation;
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  if (c.hosts.length === 0) {
    return d.run.hosts.length === 0
      ? 'the log names no host (no rank lines), so no fabric finding can be tied to this run.'
      : `none of the run's hosts (${d.run.hosts.join(', ')}) is in the topology, so no fabric finding ` +
          `can be tied to this run.`;
  }
  const hcas = c.hosts.reduce((n, h) => n + h.hcas, 0);
  const missing = c.unmatchedHosts.length ? `; ${c.unmatchedHosts.join(', ')} not in the topology` : '';
  return (
    `findings on ${plural(c.hosts.length, 'host')} (${plural(hcas, 'HCA')}${missing}), their ` +
    `${plural(c.links, 'link')} and the ${plural(c.switches, 'switch', 'switches')} above them ` +
    `(${c.tiers.join(', ') || 'none'}).`
  );
}
