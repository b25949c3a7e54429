/** `GET /api/watch`: the early-warning watch list. Part of the HTTP API contract (see ../api.ts). */
import type { Severity } from './common.ts';

/** One end of the watched port's cable. */
export interface WatchEnd {
  guid: string;
  port: number;
  name: string;
}

/** A port whose error rate rises towards the major threshold while still below it. */
export interface WatchEntry {
  /** `<guid>/<port>` */
  portKey: string;
  port: WatchEnd;
  /** The far end of the cable; null when the topology knows no link on the port. */
  remote: WatchEnd | null;
  counter: string;
  /** Rate of the newest bucket, events per hour. */
  rateNowPerHour: number;
  /** The fitted (Theil-Sen) rate now, events per hour. */
  fitNowPerHour: number;
  /** Theil-Sen slope: events per hour, per hour. */
  slopePerHourPerHour: number;
  /** Kendall's tau of the series (1 = every later bucket higher). */
  tau: number;
  /** The major threshold the projection is against, events per hour. */
  thresholdPerHour: number;
  /** When the fitted line crosses the major threshold (epoch ms). */
  projectedCrossAt: number;
  /** Buckets of the series. */
  points: number;
  /** The series itself, oldest first: bucket middle (epoch ms), events per hour. */
  series: { at: number; perHour: number }[];
  /** Severity of the open finding of this counter on the port (below major), null when none. */
  finding: Severity | null;
}

export interface WatchReply {
  generatedAt: number;
  windowHours: number;
  bucketMinutes: number;
  /** `theil-sen`: the slope is the median of all pairwise slopes. */
  method: 'theil-sen';
  /** Soonest projected crossing first. */
  entries: WatchEntry[];
}
