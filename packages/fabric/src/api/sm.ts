/**
 * Subnet managers: the SM table, events, designation.
 * Part of the HTTP API contract (see ../api.ts).
 */
import type { SmState } from '../types.ts';
import type { ScanRow } from './common.ts';
import type { SmSummary } from './summary.ts';

/**
 * One subnet manager ibwatch knows: every SM seen at some time, and every designated one. State,
 * priority, LID and activity count are as last seen; `answering` says whether the latest SM
 * observation saw it (false: "not seen since `lastSeen`").
 */
export interface SmRow {
  /** Port GUID, as SMInfo reports it. */
  guid: string;
  lid: number | null;
  /** Node name (node-name map, else NodeDescription) of the SM's port. */
  name: string | null;
  priority: number;
  state: SmState;
  activityCount: string | null;
  lastSeen: number;
  firstSeen: number;
  answering: boolean;
  /** At a designated SM port (IBWATCH_SM_GUIDS, or learned); false = rogue. */
  designated: boolean;
  nodeGuid: string | null;
  portNum: number | null;
  /** Host of an HCA (`dgx-0042` of `dgx-0042 mlx5_3`); null for a switch or an unknown port. */
  host: string | null;
  rack: string | null;
}

export interface SmEventRow {
  id: number;
  at: number;
  /**
   * One row per failover: the takeover's state changes, the old master's silence and any
   * "no master" in between are folded into it. `standby-lost` is the name rows written before
   * `not-seen` existed carry.
   */
  kind:
    | 'failover'
    | 'split-brain'
    | 'no-master'
    | 'standby-lost'
    | 'not-seen'
    | 'seen-again'
    | 'rogue'
    | 'learned'
    | 'priority'
    | 'state-change'
    | 'recovered';
  fromGuid: string | null;
  toGuid: string | null;
  /** Names of the two SMs, as known now. */
  fromName: string | null;
  toName: string | null;
  /** A failover happened after this time (the last observation of the old master) and before `at`. */
  after: number | null;
  detail: string;
}

/** Where the designated SM ports come from, and which of them never answered. */
export interface SmDesignation {
  /** `config`: IBWATCH_SM_GUIDS; `learned`: the SMs seen by an SM scan; `none`: no SM seen yet. */
  source: 'config' | 'learned' | 'none';
  /** Port GUIDs (IBWATCH_SM_GUIDS may also name node GUIDs). */
  guids: string[];
  /** When the list was learned (source `learned`). */
  learnedAt: number | null;
  /** A re-learn was asked for: the next SM observation that sees an SM sets the list. */
  relearnPending: boolean;
  /** Designated GUIDs no SM has ever answered from. */
  neverSeen: string[];
}

export interface SmReply {
  summary: SmSummary;
  sms: SmRow[];
  events: SmEventRow[];
  designation: SmDesignation;
  /** The latest SM scan (any status): a failed one means what is shown is older. */
  lastScan: ScanRow | null;
}

/** Answer to `POST /api/sms/relearn`. */
export interface SmRelearnReply {
  designation: SmDesignation;
  /** The SM scan run to learn from (null where this source runs no SM scans). */
  scan: ScanRow | null;
}

/**
 * One event of OpenSM's own log (`GET /api/sms/log`): what the SM did, timed by the SM. `at` is
 * the log's stamp read in the collector's time zone (null for a line without a stamp).
 */
export interface SmLogEvent {
  id: number;
  at: number | null;
  /** The stamp as printed, `Nov 29 17:47:04.666480`. */
  time: string | null;
  /**
   * `state`, `handover`, `sm-port-down`, `sm-port-up`, `bind-failed`, `exit`, `subnet-up`,
   * `heavy-sweep`, `sminfo-timeout`, `error`, ... (the parser's OpensmEventKind).
   */
  kind: string;
  /** `state` events: DISCOVERING, STANDBY, MASTER, NOTACTIVE. */
  state: string | null;
  /** `ERR xxxx` code. */
  errCode: string | null;
  /** GUID the message names (handover, remote master). */
  guid: string | null;
  /** syslog forms: host and pid. */
  host: string | null;
  pid: number | null;
  /** `heavy-sweep`: its duration. */
  durationMs: number | null;
  message: string;
  /** `follow:<path>` or `import:<file name>`. */
  source: string;
}

/** Where `IBWATCH_OPENSM_LOG` is followed from; null when it is not set. */
export interface SmLogFollow {
  path: string;
  /** Bytes of the current file read (complete lines only). */
  offset: number;
  lastPollAt: number | null;
  /** The last poll's problem (file missing, refused), null when it read fine. */
  error: string | null;
}

/** Answer to `GET /api/sms/log`: the newest events first. */
export interface SmLogReply {
  events: SmLogEvent[];
  follow: SmLogFollow | null;
}
