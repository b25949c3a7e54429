/** Ports and their counter history. Part of the HTTP API contract (see ../api.ts). */
import { Dict, Int, Ms, NullInt, NullText, Nullable, type Static, Str, Text, Type } from './kit.ts';
import { ExpectedRateSchema, LinkHealthSchema } from './common.ts';
import { FindingRowSchema } from './findings.ts';
import { linkEndProperties, LinkEndSchema } from './topology.ts';
import { LinkSpeedSchema, LinkWidthSchema, PhysStateSchema, PortStateSchema } from './vocab.ts';

const portRowProperties = {
  guid: Text(),
  port: Int(),
  name: Text(),
  lid: NullInt(),
  state: Nullable(PortStateSchema),
  physState: Nullable(PhysStateSchema),
  widthActive: Nullable(LinkWidthSchema),
  speedActive: Nullable(LinkSpeedSchema),
  remote: Nullable(LinkEndSchema),
  openFindings: Int(),
  /** When a topology scan last saw this port: its state and rate are as of then. */
  lastSeen: Ms(),
  /**
   * The latest topology scan did not see the port (its node became unreachable, e.g. the HCA of
   * a cable that went dark): state, rate and remote end are the last known ones, as of `lastSeen`.
   */
  stale: Type.Boolean(),
  /** Never part of a link: an uncabled port (Down/Polling since it was first seen), not a link that went down. */
  unused: Type.Boolean(),
  /** Where a port that lost its link was last connected (`remote` is then null), and when it was last seen so. */
  lastRemote: Nullable(Type.Object({ ...linkEndProperties, lastSeen: Ms() })),
};
export const PortRowSchema = Type.Object(portRowProperties);
export type PortRow = Static<typeof PortRowSchema>;

export const PortsReplySchema = Type.Object({ total: Int(), items: Type.Array(PortRowSchema) });
export type PortsReply = Static<typeof PortsReplySchema>;

export const CounterPointSchema = Type.Object({
  at: Ms(),
  counter: Text(),
  delta: Type.Number(),
  /** Per second over the interval that ended at `at`. */
  rate: Type.Number(),
});
export type CounterPoint = Static<typeof CounterPointSchema>;

export const StateChangeSchema = Type.Object({
  at: Ms(),
  state: Nullable(PortStateSchema),
  physState: Nullable(PhysStateSchema),
  widthActive: Nullable(LinkWidthSchema),
  speedActive: Nullable(LinkSpeedSchema),
});
export type StateChange = Static<typeof StateChangeSchema>;

export const PortDetailReplySchema = Type.Object({
  port: Type.Object({
    ...portRowProperties,
    widthEnabled: Type.Array(LinkWidthSchema),
    widthSupported: Type.Array(LinkWidthSchema),
    speedEnabled: Type.Array(LinkSpeedSchema),
    speedSupported: Type.Array(LinkSpeedSchema),
    rack: NullText(),
  }),
  expected: ExpectedRateSchema,
  cable: Nullable(
    Type.Object({
      vendor: Type.Optional(Text()),
      partNumber: Type.Optional(Text()),
      serialNumber: Type.Optional(Text()),
      lengthM: Type.Optional(Type.Number()),
    }),
  ),
  findings: Type.Array(FindingRowSchema),
  /** Health of the port's link (or of the port alone) as the latest scans observed it. */
  health: LinkHealthSchema,
  /** The worst current finding's short reason when health is not ok. */
  healthReason: NullText(),
});
export type PortDetailReply = Static<typeof PortDetailReplySchema>;

export const CounterHistoryReplySchema = Type.Object({
  range: Str(['1h', '24h', '7d', '30d']),
  resolution: Str(['sweep', 'hour']),
  /**
   * Start of what the points can cover: the later of the range's start and the port's first
   * observation. Before it there is no data (not zero errors); charts start here.
   */
  observedFrom: Ms(),
  points: Type.Array(CounterPointSchema),
  /** Per-counter thresholds as rates per second, drawn on the charts. */
  thresholds: Dict(Type.Number()),
  stateChanges: Type.Array(StateChangeSchema),
});
export type CounterHistoryReply = Static<typeof CounterHistoryReplySchema>;
