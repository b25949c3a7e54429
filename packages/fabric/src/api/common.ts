/**
 * Vocabulary shared by every resource, health and scans.
 * Part of the HTTP API contract (see ../api.ts): each type is derived from its schema.
 */
import { Dict, Int, Ms, NullMs, NullNum, NullText, NumOrText, type Static, Str, Strings, Text, Type } from './kit.ts';
import { LinkSpeedSchema, LinkWidthSchema } from './vocab.ts';

export const SEVERITIES = ['critical', 'major', 'minor', 'info'] as const;
export const SeveritySchema = Str(SEVERITIES);
export type Severity = Static<typeof SeveritySchema>;
export const FindingStateSchema = Str(['open', 'acknowledged', 'resolved']);
export type FindingState = Static<typeof FindingStateSchema>;
export const LinkHealthSchema = Str(['ok', 'degraded', 'errors', 'down']);
export type LinkHealth = Static<typeof LinkHealthSchema>;
/**
 * Where a node sits in the fat tree. `aggregation`: a SHARP Aggregation Node, the CA inside a
 * Quantum switch that reduces in-network (one per managed NDR switch, on its port 65).
 * `unknown`: reached from no HCA (an isolated switch, a router), so no tier can be inferred.
 */
export const TIERS = ['core', 'spine', 'leaf', 'hca', 'aggregation', 'unknown'] as const;
export const TierSchema = Str(TIERS);
export type Tier = Static<typeof TierSchema>;
export const SCAN_KINDS = [
  'pm',
  'sm',
  'topology',
  'ibdiagnet',
  'import-ibdiagnet',
  'import-nccl',
  'slurm',
  'import-diags',
  'import-opensm-log',
] as const;
export const ScanKindSchema = Str(SCAN_KINDS);
export type ScanKind = Static<typeof ScanKindSchema>;
export const ScanStatusSchema = Str(['running', 'ok', 'partial', 'failed']);
export type ScanStatus = Static<typeof ScanStatusSchema>;

export const ExpectedRateSchema = Type.Object({ width: LinkWidthSchema, speed: LinkSpeedSchema });
export type ExpectedRate = Static<typeof ExpectedRateSchema>;

/** `GET /api/health`. */
export const HealthReplySchema = Type.Object({
  status: Str(['ok']),
  version: Text(),
  source: Text(),
  uptimeS: Type.Number(),
});
export type HealthReply = Static<typeof HealthReplySchema>;

/** `GET /api/ready` when ready (a 503 says why not). */
export const ReadyReplySchema = Type.Object({ ready: Type.Boolean() });
export type ReadyReply = Static<typeof ReadyReplySchema>;

export const ScanRowSchema = Type.Object({
  id: Int(),
  kind: ScanKindSchema,
  trigger: Str(['schedule', 'api', 'cli', 'startup']),
  status: ScanStatusSchema,
  startedAt: Ms(),
  finishedAt: NullMs(),
  durationMs: NullNum(),
  error: NullText(),
  warnings: Strings(),
  toolVersions: Dict(Text()),
  summary: Dict(NumOrText()),
});
export type ScanRow = Static<typeof ScanRowSchema>;

/** A port by GUID and number with its node's name: how watch, hot links and validation name cable ends. */
export const NamedPortSchema = Type.Object({ guid: Text(), port: Int(), name: Text() });
export type NamedPort = Static<typeof NamedPortSchema>;
