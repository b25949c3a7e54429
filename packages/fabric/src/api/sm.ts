/**
 * Subnet managers: the SM table, events, designation.
 * Part of the HTTP API contract (see ../api.ts).
 */
import { Int, Ms, NullInt, NullMs, NullNum, NullText, Nullable, type Static, Str, Strings, Text, Type } from './kit.ts';
import { ScanRowSchema } from './common.ts';
import { SmSummarySchema } from './summary.ts';
import { SmStateSchema } from './vocab.ts';

/**
 * One subnet manager ibwatch knows: every SM seen at some time, and every designated one. State,
 * priority, LID and activity count are as last seen; `answering` says whether the latest SM
 * observation saw it (false: "not seen since `lastSeen`").
 */
export const SmRowSchema = Type.Object({
  /** Port GUID, as SMInfo reports it. */
  guid: Text(),
  lid: NullInt(),
  /** Node name (node-name map, else NodeDescription) of the SM's port. */
  name: NullText(),
  priority: Int(),
  state: SmStateSchema,
  activityCount: NullText(),
  lastSeen: Ms(),
  firstSeen: Ms(),
  answering: Type.Boolean(),
  /** At a designated SM port (IBWATCH_SM_GUIDS, or learned); false = rogue. */
  designated: Type.Boolean(),
  nodeGuid: NullText(),
  portNum: NullInt(),
  /** Host of an HCA (`dgx-0042` of `dgx-0042 mlx5_3`); null for a switch or an unknown port. */
  host: NullText(),
  rack: NullText(),
});
export type SmRow = Static<typeof SmRowSchema>;

export const SmEventRowSchema = Type.Object({
  id: Int(),
  at: Ms(),
  /**
   * One row per failover: the takeover's state changes, the old master's silence and any
   * "no master" in between are folded into it. `standby-lost` is the name rows written before
   * `not-seen` existed carry.
   */
  kind: Str([
    'failover',
    'split-brain',
    'no-master',
    'standby-lost',
    'not-seen',
    'seen-again',
    'rogue',
    'learned',
    'priority',
    'state-change',
    'recovered',
  ]),
  fromGuid: NullText(),
  toGuid: NullText(),
  /** Names of the two SMs, as known now. */
  fromName: NullText(),
  toName: NullText(),
  /** A failover happened after this time (the last observation of the old master) and before `at`. */
  after: NullMs(),
  detail: Text(),
});
export type SmEventRow = Static<typeof SmEventRowSchema>;

/** Where the designated SM ports come from, and which of them never answered. */
export const SmDesignationSchema = Type.Object({
  /** `config`: IBWATCH_SM_GUIDS; `learned`: the SMs seen by an SM scan; `none`: no SM seen yet. */
  source: Str(['config', 'learned', 'none']),
  /** Port GUIDs (IBWATCH_SM_GUIDS may also name node GUIDs). */
  guids: Strings(),
  /** When the list was learned (source `learned`). */
  learnedAt: NullMs(),
  /** A re-learn was asked for: the next SM observation that sees an SM sets the list. */
  relearnPending: Type.Boolean(),
  /** Designated GUIDs no SM has ever answered from. */
  neverSeen: Strings(),
});
export type SmDesignation = Static<typeof SmDesignationSchema>;

export const SmReplySchema = Type.Object({
  summary: SmSummarySchema,
  sms: Type.Array(SmRowSchema),
  events: Type.Array(SmEventRowSchema),
  designation: SmDesignationSchema,
  /** The latest SM scan (any status): a failed one means what is shown is older. */
  lastScan: Nullable(ScanRowSchema),
});
export type SmReply = Static<typeof SmReplySchema>;

/** Answer to `POST /api/sms/relearn`. */
export const SmRelearnReplySchema = Type.Object({
  designation: SmDesignationSchema,
  /** The SM scan run to learn from (null where this source runs no SM scans). */
  scan: Nullable(ScanRowSchema),
});
export type SmRelearnReply = Static<typeof SmRelearnReplySchema>;

/**
 * One event of OpenSM's own log (`GET /api/sms/log`): what the SM did, timed by the SM. `at` is
 * the log's stamp read in the collector's time zone (null for a line without a stamp).
 */
export const SmLogEventSchema = Type.Object({
  id: Int(),
  at: NullMs(),
  /** The stamp as printed, `Nov 29 17:47:04.666480`. */
  time: NullText(),
  /**
   * `state`, `handover`, `sm-port-down`, `sm-port-up`, `bind-failed`, `sm-port-unknown`, `exit`, `subnet-up`,
   * `heavy-sweep`, `sminfo-timeout`, `error`, ... (the parser's OpensmEventKind).
   */
  kind: Text(),
  /** `state` events: DISCOVERING, STANDBY, MASTER, NOTACTIVE. */
  state: NullText(),
  /** `ERR xxxx` code. */
  errCode: NullText(),
  /** GUID the message names (handover, remote master). */
  guid: NullText(),
  /** syslog forms: host and pid. */
  host: NullText(),
  pid: NullInt(),
  /** `heavy-sweep`: its duration. */
  durationMs: NullNum(),
  message: Text(),
  /** `follow:<path>` or `import:<file name>`. */
  source: Text(),
});
export type SmLogEvent = Static<typeof SmLogEventSchema>;

/** Where `IBWATCH_OPENSM_LOG` is followed from; null when it is not set. */
export const SmLogFollowSchema = Type.Object({
  path: Text(),
  /** Bytes of the current file read (complete lines only). */
  offset: Int(),
  lastPollAt: NullMs(),
  /** The last poll's problem (file missing, refused), null when it read fine. */
  error: NullText(),
});
export type SmLogFollow = Static<typeof SmLogFollowSchema>;

/** Answer to `GET /api/sms/log`: the newest events first. */
export const SmLogReplySchema = Type.Object({
  events: Type.Array(SmLogEventSchema),
  follow: Nullable(SmLogFollowSchema),
});
export type SmLogReply = Static<typeof SmLogReplySchema>;
