/** `GET /api/watch`: the early-warning watch list. Part of the HTTP API contract (see ../api.ts). */
import { Int, Ms, Nullable, Num, type Static, Str, Text, Type } from './kit.ts';
import { NamedPortSchema, SeveritySchema } from './common.ts';

/** One end of the watched port's cable. */
export const WatchEndSchema = NamedPortSchema;
export type WatchEnd = Static<typeof WatchEndSchema>;

/** A port whose error rate rises towards the major threshold while still below it. */
export const WatchEntrySchema = Type.Object({
  /** `<guid>/<port>` */
  portKey: Text(),
  port: WatchEndSchema,
  /** The far end of the cable; null when the topology knows no link on the port. */
  remote: Nullable(WatchEndSchema),
  counter: Text(),
  /** Rate of the newest bucket, events per hour. */
  rateNowPerHour: Num(),
  /** The fitted (Theil-Sen) rate now, events per hour. */
  fitNowPerHour: Num(),
  /** Theil-Sen slope: events per hour, per hour. */
  slopePerHourPerHour: Num(),
  /** Kendall's tau of the series (1 = every later bucket higher). */
  tau: Num(),
  /** The major threshold the projection is against, events per hour. */
  thresholdPerHour: Num(),
  /** When the fitted line crosses the major threshold (epoch ms). */
  projectedCrossAt: Ms(),
  /** Buckets of the series. */
  points: Int(),
  /** The series itself, oldest first: bucket middle (epoch ms), events per hour. */
  series: Type.Array(Type.Object({ at: Ms(), perHour: Num() })),
  /** Severity of the open finding of this counter on the port (below major), null when none. */
  finding: Nullable(SeveritySchema),
});
export type WatchEntry = Static<typeof WatchEntrySchema>;

export const WatchReplySchema = Type.Object({
  generatedAt: Ms(),
  windowHours: Num(),
  bucketMinutes: Num(),
  /** `theil-sen`: the slope is the median of all pairwise slopes. */
  method: Str(['theil-sen'] as const),
  /** Soonest projected crossing first. */
  entries: Type.Array(WatchEntrySchema),
});
export type WatchReply = Static<typeof WatchReplySchema>;
