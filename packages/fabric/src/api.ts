/**
 * JSON shapes of the collector's HTTP API (`/api/...`). The collector's route schemas and the
 * web app both use these types, so a change here is a change of the contract. Times are epoch
 * milliseconds (UTC); the web app formats them in the browser's time zone.
 */
import type { LinkSpeed, LinkWidth, NodeType, PhysState, PortState, SmState } from './types.ts';

export type Severity = 'critical' | 'major' | 'minor' | 'info';
export type FindingState = 'open' | 'acknowledged' | 'resolved';
export type LinkHealth = 'ok' | 'degraded' | 'errors' | 'down';
export type Tier = 'core' | 'spine' | 'leaf' | 'hca';
export type ScanKind = 'pm' | 'sm' | 'topology' | 'ibdiagnet' | 'import-ibdiagnet' | 'import-nccl';
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

export interface SmSummary {
  status: 'ok' | 'no-master' | 'split-brain' | 'unknown';
  masterGuid: string | null;
  masterName: string | null;
  masterCount: number;
  standbyCount: number;
  failoversLast24h: number;
  lastChangeAt: number | null;
}

export interface FabricSummary {
  generatedAt: number;
  expectedRate: ExpectedRate;
  switches: number;
  hcas: number;
  ports: number;
  activePorts: number;
  links: number;
  degradedLinks: number;
  downLinks: number;
  portsOverThreshold: number;
  findingsBySeverity: Record<Severity, number>;
  sm: SmSummary;
  lastScans: ScanRow[];
  ncclTrend: { at: number; busbwGBs: number; collective: string; verdict: NcclVerdict }[];
}

export interface TopoNode {
  guid: string;
  name: string;
  type: NodeType;
  tier: Tier;
  rail: number | null;
  rack: string | null;
  lid: number | null;
  /** Host name for HCAs (`dgx-0042` of `dgx-0042 mlx5_3`). */
  host: string | null;
}

export interface LinkEnd {
  guid: string;
  name: string;
  port: number;
  lid: number | null;
  rack: string | null;
}

export interface TopoLink {
  id: number;
  a: LinkEnd;
  b: LinkEnd;
  tier: 'hca-leaf' | 'leaf-spine' | 'spine-core' | 'other';
  health: LinkHealth;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  /** Plain-words reason when health is not ok. */
  reason: string | null;
}

export interface TopologyReply {
  generatedAt: number;
  nodes: TopoNode[];
  links: TopoLink[];
}

export interface PortRow {
  guid: string;
  port: number;
  name: string;
  lid: number | null;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  remote: LinkEnd | null;
  openFindings: number;
  lastSeen: number;
}

export interface PortsReply {
  total: number;
  items: PortRow[];
}

export interface CounterPoint {
  at: number;
  counter: string;
  delta: number;
  /** Per second over the interval that ended at `at`. */
  rate: number;
}

export interface StateChange {
  at: number;
  state: PortState | null;
  physState: PhysState | null;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
}

export interface PortDetailReply {
  port: PortRow & {
    widthEnabled: LinkWidth[];
    widthSupported: LinkWidth[];
    speedEnabled: LinkSpeed[];
    speedSupported: LinkSpeed[];
    rack: string | null;
  };
  expected: ExpectedRate;
  cable: { vendor?: string; partNumber?: string; serialNumber?: string; lengthM?: number } | null;
  findings: FindingRow[];
}

export interface CounterHistoryReply {
  range: '1h' | '24h' | '7d' | '30d';
  resolution: 'sweep' | 'hour';
  points: CounterPoint[];
  /** Per-counter thresholds as rates per second, drawn on the charts. */
  thresholds: Record<string, number>;
  stateChanges: StateChange[];
}

export interface FindingRow {
  id: number;
  kind: string;
  severity: Severity;
  state: FindingState;
  subjectType: 'port' | 'link' | 'sm' | 'run' | 'fabric';
  subjectKey: string;
  title: string;
  evidence: Record<string, unknown>;
  firstSeen: number;
  lastSeen: number;
  resolvedAt: number | null;
  acknowledgedBy: string | null;
}

/**
 * One step of a finding's history. `event` is `opened`, `acknowledged`, `resolved` (through the
 * API) or `auto-resolved` (after IBWATCH_AUTO_RESOLVE_SWEEPS clean sweeps); the collector may add
 * other lifecycle steps, so render an unknown one as it is. `by` is the name of the token that
 * made an API change (IBWATCH_TOKENS), null for the collector's own; `note` is the reason given.
 */
export interface FindingEvent {
  at: number;
  event: string;
  by: string | null;
  note: string | null;
}

/** `GET /api/findings/:id`, and the reply of acknowledge and resolve: the finding with its history, oldest first. */
export interface FindingDetail extends FindingRow {
  history: FindingEvent[];
}

/** `GET /api/whoami`: the name of the bearer token sent, null without a valid one. */
export interface WhoamiReply {
  name: string | null;
}

export interface WorklistEntry {
  rank: number;
  findingIds: number[];
  linkKey: string;
  severity: Severity;
  state: FindingState;
  a: LinkEnd;
  b: LinkEnd | null;
  reasons: string[];
  action: string;
  cable: string | null;
  firstSeen: number;
  lastSeen: number;
}

export interface SmRow {
  guid: string;
  lid: number | null;
  name: string | null;
  priority: number;
  state: SmState;
  activityCount: string | null;
  lastSeen: number;
}

export interface SmEventRow {
  id: number;
  at: number;
  kind: 'failover' | 'split-brain' | 'no-master' | 'standby-lost' | 'priority' | 'state-change' | 'recovered';
  fromGuid: string | null;
  toGuid: string | null;
  detail: string;
}

export interface SmReply {
  summary: SmSummary;
  sms: SmRow[];
  events: SmEventRow[];
}

export type NcclVerdict = 'pass' | 'fail' | 'host-memory-fallback' | 'unknown';

export interface NcclRunRow {
  id: number;
  createdAt: number;
  collective: string;
  labels: { cluster?: string; nodes?: number; gpuModel?: string; hcaCount?: number; runBy?: string };
  hosts: string[];
  ranks: number;
  ncclVersion: string | null;
  gdr: 'enabled' | 'disabled' | 'mixed' | 'unknown';
  avgBusbwGBs: number | null;
  peakBusbwGBs: number | null;
  targetGBs: number | null;
  verdict: NcclVerdict;
  regression: boolean;
  truncated: boolean;
}

export interface NcclRunDetailReply {
  run: NcclRunRow;
  rows: {
    sizeBytes: number;
    type: string;
    redop: string | null;
    outOfPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
    inPlace: { timeUs: number | null; algbwGBs: number | null; busbwGBs: number | null; wrong: number | null };
  }[];
  gdrEvidence: string[];
  correlatedFindings: FindingRow[];
}

export interface BandwidthReport {
  from: number;
  to: number;
  runs: number;
  passed: number;
  passRate: number;
  byCollective: {
    collective: string;
    runs: number;
    passed: number;
    bestGBs: number | null;
    medianGBs: number | null;
    worstGBs: number | null;
    targetGBs: number | null;
  }[];
  topFabricIssues: { kind: string; title: string; count: number; severity: Severity }[];
}

/** `GET /api/peers`: the collectors of other fabrics (IBWATCH_PEERS), one per fabric. */
export interface PeersReply {
  self: { source: string };
  peers: { name: string; url: string }[];
}
