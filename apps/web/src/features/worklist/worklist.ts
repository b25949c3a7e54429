import type { EntryImpact, LinkEnd, QueryString, Severity, WorklistEntry } from '@ibwatch/fabric';
import { isSeverity } from '../../lib/status.ts';
import { serializeQuery, type Query } from '../../router.ts';

export interface WorklistFilters {
  switch?: string;
  rack?: string;
  severity?: Severity;
  /**
   * `rack`: the walking order (end A's rack, U, port); `impact`: most Slurm jobs, then GPUs,
   * behind the cable first; most urgent first when absent.
   */
  sort?: 'rack' | 'impact';
}

/** URL query → filters (unknown severities are dropped, blanks ignored). */
export function parseWorklistFilters(q: Query): WorklistFilters {
  const f: WorklistFilters = {};
  if (q.switch?.trim()) f.switch = q.switch.trim();
  if (q.rack?.trim()) f.rack = q.rack.trim();
  if (isSeverity(q.severity)) f.severity = q.severity;
  if (q.sort === 'rack' || q.sort === 'impact') f.sort = q.sort;
  return f;
}

/** Filters → `?rack=..&severity=..&sort=..&switch=..` (sorted keys; '' when none). */
export function worklistQuery(f: WorklistFilters): QueryString {
  return serializeQuery({ switch: f.switch, rack: f.rack, severity: f.severity, sort: f.sort });
}

export const worklistApiPath = (f: WorklistFilters): `/api/worklist${QueryString}` =>
  `/api/worklist${worklistQuery(f)}`;
export const worklistCsvHref = (f: WorklistFilters): string => `/api/worklist.csv${worklistQuery(f)}`;

/** Human summary of the filters for the printed header. */
export function describeFilters(f: WorklistFilters): string {
  const parts = [
    f.switch && `switch ${f.switch}`,
    f.rack && `rack ${f.rack}`,
    f.severity && `severity ${f.severity}`,
  ].filter(Boolean);
  const which = parts.length ? parts.join(', ') : 'all links';
  if (f.sort === 'impact') return `${which}, by impact (jobs, GPUs)`;
  return f.sort === 'rack' ? `${which}, in rack order` : which;
}

/** `R07 U12`: a rack and the unit in it, when the node-name map gives one. */
function place(end: LinkEnd | null): string | null {
  if (!end?.rack) return null;
  return end.u === null || end.u === undefined ? end.rack : `${end.rack} U${end.u}`;
}

/** Where a technician walks to: end A's rack and unit, then end B's when elsewhere. */
export function racksOf(e: WorklistEntry): string {
  const r = [place(e.a), place(e.b)].filter((x): x is string => !!x);
  return [...new Set(r)].join(' ↔ ') || '—';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Hosts as a short list: all of them up to `max`, else the first ones and how many more. */
export function hostList(hosts: readonly string[], max = 4): string {
  return hosts.length <= max ? hosts.join(', ') : `${hosts.slice(0, max).join(', ')} +${hosts.length - max} more`;
}

/** One line of who the cable hurts, e.g. `dgx-0003, rail 2 · 1 GPU` or `32 hosts · 32 GPUs · uplinks -1.6 %`. */
export function impactSummary(i: EntryImpact): string {
  const parts: string[] = [];
  if (i.kind === 'hca-link') {
    parts.push(`${hostList(i.hosts)}${i.rails.length ? `, rail ${i.rails.join('/')}` : ''}`);
  } else if (i.hosts.length) {
    parts.push(`${plural(i.hosts.length, 'host')} under ${i.uplink?.switch ?? 'the link'}`);
    if (i.rails.length === 1) parts.push(`rail ${i.rails[0]}`);
  }
  if (i.gpus) parts.push(plural(i.gpus, 'GPU'));
  if (i.uplink && i.uplink.lostGbps > 0)
    parts.push(`uplinks −${(i.uplink.share * 100).toFixed(1)} % (${i.uplink.lostGbps} of ${i.uplink.totalGbps} Gb/s)`);
  if (i.pods.length > 1) parts.push(`joins ${plural(i.pods.length, 'pod')}`);
  return parts.join(' · ') || 'no hosts behind it';
}
