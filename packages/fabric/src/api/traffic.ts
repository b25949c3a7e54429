/**
 * `GET /api/traffic/hot` and `GET /api/ports/:guid/:port/traffic`: traffic and XmitWait
 * (docs/traffic.md). Part of the HTTP API contract (see ../api.ts).
 */
import { Int, Ms, Nullable, Num, NullText, type Static, Str, Type } from './kit.ts';
import { NamedPortSchema, TierSchema } from './common.ts';

/** One end of a hot link as `/api/traffic/hot` lists it. */
export const TrafficEndSchema = Type.Object({ ...NamedPortSchema.properties, tier: TierSchema });
export type TrafficEnd = Static<typeof TrafficEndSchema>;

/**
 * A port over the window: utilisation in % of its link's data rate (width x lane rate, e.g. 4X
 * NDR = 400 Gb/s), averages of the hourly averages and the highest hourly maximum; XmitWait in
 * ticks/s. `uplink`: the remote end is a tier above (leaf->spine, spine->core).
 */
export const HotLinkSchema = Type.Object({
  ...TrafficEndSchema.properties,
  remote: Nullable(TrafficEndSchema),
  uplink: Type.Boolean(),
  rate: NullText(),
  linkGbps: Num(),
  txAvgPct: Num(),
  txMaxPct: Num(),
  rxAvgPct: Num(),
  rxMaxPct: Num(),
  waitAvgTps: Num(),
  waitMaxTps: Num(),
});
export type HotLink = Static<typeof HotLinkSchema>;

export const TrafficHotReplySchema = Type.Object({
  /** Window in hours (the current hour so far included). */
  hours: Int(),
  from: Ms(),
  to: Ms(),
  byUtilisation: Type.Array(HotLinkSchema),
  byXmitWait: Type.Array(HotLinkSchema),
});
export type TrafficHotReply = Static<typeof TrafficHotReplySchema>;

/** One point of a port's traffic: bytes/s, % of the link's data rate, XmitWait ticks/s. */
export const TrafficPointSchema = Type.Object({
  at: Ms(),
  txBps: Num(),
  rxBps: Num(),
  txPct: Num(),
  rxPct: Num(),
  waitTps: Num(),
  /** Hourly points only: the hour's maxima. */
  txMaxPct: Type.Optional(Num()),
  rxMaxPct: Type.Optional(Num()),
  waitMaxTps: Type.Optional(Num()),
});
export type TrafficPoint = Static<typeof TrafficPointSchema>;

export const PortTrafficReplySchema = Type.Object({
  range: Str(['1h', '24h', '7d', '30d'] as const),
  /** `sweep` while the port is among the busiest kept at sweep resolution, else `hour`. */
  resolution: Str(['sweep', 'hour'] as const),
  linkGbps: Num(),
  points: Type.Array(TrafficPointSchema),
});
export type PortTrafficReply = Static<typeof PortTrafficReplySchema>;
