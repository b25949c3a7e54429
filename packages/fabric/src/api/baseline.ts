/** `GET /api/baseline/validation`: the topology validation report. Part of the HTTP API contract (see ../api.ts). */
import type { LinkSpeed, LinkWidth } from '../types.ts';

export interface ValidationEnd {
  guid: string;
  port: number;
  name: string;
}

export interface ValidationLink {
  a: ValidationEnd;
  b: ValidationEnd;
  width: LinkWidth | null;
  speed: LinkSpeed | null;
}

export interface ValidationReportRow {
  /** `missing-link`, `extra-link`, `moved-cable`, `wrong-rail`, `degraded`. */
  kind: 'missing-link' | 'extra-link' | 'moved-cable' | 'wrong-rail' | 'degraded';
  /** The link as built; null for an extra link. */
  asBuilt: ValidationLink | null;
  /** The link now; null for a missing link. */
  now: ValidationLink | null;
  detail: string;
}

export interface BaselineValidationReply {
  /** The as-built in force; null when none was set (then `rows` is empty). */
  baseline: { setAt: number; source: string; links: number } | null;
  /** Links present now. */
  linksNow: number;
  checkedAt: number;
  /** Rows per kind (every kind listed, 0 when none). */
  counts: Record<ValidationReportRow['kind'], number>;
  /** Worst first: wrong rail, moved, missing, degraded, extra. */
  rows: ValidationReportRow[];
}
