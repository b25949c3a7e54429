import type { LinkEnd, QueryString, Severity, WorklistEntry } from '@ibwatch/fabric';
import { isSeverity } from '../../lib/status.ts';
import { serializeQuery, type Query } from '../../router.ts';

export interface WorklistFilters {
  switch?: string;
  rack?: string;
  severity?: Severity;
  /** `rack`: the walking order (end A's rack, U, port); most urgent first when absent. */
  sort?: 'rack';
}

/** URL query → filters (unknown severities are dropped, blanks ignored). */
export function parseWorklistFilters(q: Query): WorklistFilters {
  const f: WorklistFilters = {};
  if (q.switch?.trim()) f.switch = q.switch.trim();
  if (q.rack?.trim()) f.rack = q.rack.trim();
  if (isSeverity(q.severity)) f.severity = q.severity;
  if (q.sort === 'rack') f.sort = 'rack';
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
