/**
 * Traffic and congestion on a lab port. ibsim moves no data (it counts only the MADs it
 * carries), so traffic is written into the port's counters with PerformanceSet: the 64-bit
 * PortCountersExtended.PortXmitData/PortRcvData (4-byte words; the 32-bit PortCounters ones
 * would saturate within a second at NDR) and the 32-bit PortXmitWait (ticks). One call adds
 * `seconds` worth at the given rates: call it once per PM sweep for sustained traffic.
 */
import type { PortAddr } from './console.ts';
import type { Lab } from './lab.ts';
import { readCounters, setCounter } from './faults.ts';

export interface TrafficFault {
  /** Transmit rate in Gb/s (receive is the same unless `rcvGbps` says otherwise). */
  gbps: number;
  rcvGbps?: number;
  /** PortXmitWait ticks per second (0: none). */
  waitTps?: number;
  /** Seconds of traffic to add (default 60: one PM sweep at the default cadence). */
  seconds?: number;
}

/** Words of data for `gbps` over `seconds` (PortXmitData counts octets / 4). */
export const wordsFor = (gbps: number, seconds: number): bigint => BigInt(Math.round((gbps * 1e9 * seconds) / 8 / 4));

/** Adds the traffic; returns the counters' new values. */
export async function addTraffic(
  lab: Lab,
  p: PortAddr,
  f: TrafficFault,
): Promise<{ xmitData: bigint; rcvData: bigint; xmitWait: number }> {
  if (!(f.gbps >= 0) || !((f.rcvGbps ?? 0) >= 0) || !((f.waitTps ?? 0) >= 0))
    throw new Error('traffic rates must be >= 0');
  const seconds = f.seconds ?? 60;
  const ext = await readCounters(lab, p, true);
  const xmitData = (ext.PortXmitData ?? 0n) + wordsFor(f.gbps, seconds);
  const rcvData = (ext.PortRcvData ?? 0n) + wordsFor(f.rcvGbps ?? f.gbps, seconds);
  await setCounter(lab, p, 'PortCountersExtended.PortXmitData', xmitData);
  await setCounter(lab, p, 'PortCountersExtended.PortRcvData', rcvData);
  let xmitWait = 0;
  if (f.waitTps) {
    const cur = Number((await readCounters(lab, p)).PortXmitWait ?? 0n);
    // 32-bit, saturating as real ports do.
    xmitWait = Math.min(0xffff_ffff, cur + Math.round(f.waitTps * seconds));
    await setCounter(lab, p, 'PortXmitWait', xmitWait);
  }
  return { xmitData, rcvData, xmitWait };
}
