import type { Tier } from './common.ts';

/** One end of a hot link as `/api/traffic/hot` lists it. */
export interface TrafficEnd {
  guid: string;
  port: number;
  name: string;
  tier: Tier;
}

/**
 * A port over the window: utilisation in % of its link's data rate (width x lane rate, e.g. 4X
 * NDR = 400 Gb/s), averages of the hourly averages and the highest hourly maximum; XmitWait in
 * ticks/s. `uplink`: the remote end is a tier above (leaf->spine, spine->core).
 */
export interface HotLink extends TrafficEnd {
  remote: TrafficEnd | null;
  uplink: boolean;
  rate: string | null;
  linkGbps: number;
  txAvgPct: number;
  txMaxPct: number;
  rxAvgPct: number;
  rxMaxPct: number;
  waitAvgTps: number;
  waitMaxTps: number;
}

export interface TrafficHotReply {
  /** Window in hours (the current hour so far included). */
  hours: number;
  from: number;
  to: number;
  byUtilisation: HotLink[];
  byXmitWait: HotLink[];
}

/** One point of a port's traffic: bytes/s, % of the link's data rate, XmitWait ticks/s. */
export interface TrafficPoint {
  at: number;
  txBps: number;
  rxBps: number;
  txPct: number;
  rxPct: number;
  waitTps: number;
  /** Hourly points only: the hour's maxima. */
  txMaxPct?: number;
  rxMaxPct?: number;
  waitMaxTps?: number;
}

export interface PortTrafficReply {
  range: '1h' | '24h' | '7d' | '30d';
  /** `sweep` while the port is among the busiest kept at sweep resolution, else `hour`. */
  resolution: 'sweep' | 'hour';
  linkGbps: number;
  points: TrafficPoint[];
}
