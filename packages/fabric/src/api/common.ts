/**
 * Vocabulary shared by every resource, health and scans.
 * Part of the HTTP API contract (see ../api.ts).
 */
import type { LinkSpeed, LinkWidth } from '../types.ts';

export type Severity = 'critical' | 'major' | 'minor' | 'info';
export type FindingState = 'open' | 'acknowledged' | 'resolved';
export type LinkHealth = 'ok' | 'degraded' | 'errors' | 'down';
/**
 * Where a node sits in the fat tree. `aggregation`: a SHARP Aggregation Node, the CA inside a
 * Quantum switch that reduces in-network (one per managed NDR switch, on its port 65).
 * `unknown`: reached from no HCA (an isolated switch, a router), so no tier can be inferred.
 */
export type Tier = 'core' | 'spine' | 'leaf' | 'hca' | 'aggregation' | 'unknown';
export type ScanKind = 'pm' | 'sm' | 'topology' | 'ibdiagnet' | 'import-ibdiagnet' | 'import-nccl' | 'slurm';
export type ScanStatus = 'running' | 'ok' | 'partial' | 'failed';

export interface ExpectedRate {
  width: LinkWidth;
  speed: LinkSpeed;
}

export interface HealthReply {
  status: 'ok';
  version: string;
  source: string;
  uptimeS: number;
}

export interface ScanRow {
  id: number;
  kind: ScanKind;
  trigger: 'schedule' | 'api' | 'cli' | 'startup';
  status: ScanStatus;
  startedAt: number;
  finishedAt: number | null;
  durationMs: number | null;
  error: string | null;
  warnings: string[];
  toolVersions: Record<string, string>;
  summary: Record<string, number | string>;
}
