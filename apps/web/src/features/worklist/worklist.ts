import type { Severity, WorklistEntry } from '@ibwatch/fabric';
import { isSeverity } from '../../lib/status.ts';
import { serializeQuery, type Query } from '../../router.ts';

export interface WorklistFilters {
  switch?: string;
  rack?: string;
  severity?: Severity;
}

/** URL query → filters (unknown severities are dropped, blanks ignored). */
export function parseWorklistFilters(q: Query): WorklistFilters {
  const f: WorklistFilters = {};
  if (q.switch?.trim()) f.switch = q.switch.trim();
  if (q.rack?.trim()) f.rack = q.rack.trim();
  if (isSeverity(q.severity)) f.severity = q.severity;
  return f;
}

/** Filters → `?rack=..&severity=..&switch=..` (sorted keys; '' when none). */
export function worklistQuery(f: WorklistFilters): string {
  return serializeQuery({ switch: f.switch, rack: f.rack, severity: f.severity });
}

export const worklistApiPath = (f: WorklistFilters): string => `/api/worklist${worklistQuery(f)}`;
export const worklistCsvHref = (f: WorklistFilters): string => `/api/worklist.csv${worklistQuery(f)}`;

/** Human summary of the filters for the printed header. */
export function describeFilters(f: WorklistFilters): string {
  const parts = [
    f.switch && `switch ${f.switch}`,
    f.rack && `rack ${f.rack}`,
    f.severity && `severity ${f.severity}`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'all links';
}

/** Rack(s) a technician walks to: both ends' racks, deduplicated. */
export function racksOf(e: WorklistEntry): string {
  const r = [e.a.rack, e.b?.rack].filter((x): x is string => !!x);
  return [...new Set(r)].join(' ↔ ') || '—';
}
