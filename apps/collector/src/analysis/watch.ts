import {
  DEFAULT_THRESHOLDS,
  DEFAULT_TREND_RULES,
  nominalGbps,
  symbolErrorsPerHourAtBer,
  type LinkSpeed,
  type LinkWidth,
  WATCH_COUNTERS,
  watchVerdict,
  type RatePoint,
  type Severity,
  type WatchEntry,
  type WatchReply,
} from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import {
  activeFindingSeverity,
  errorDeltasSince,
  portWithPeer,
  sweepsSince,
  type WatchedPort,
} from '../db/watch-queries.ts';
import { rateThresholds } from './thresholds.ts';

/** The finding kind each watched counter raises (port-health.ts). */
const KIND: Record<string, string> = {
  SymbolErrorCounter: 'symbol-errors',
  LinkErrorRecoveryCounter: 'link-error-recovery',
  PortRcvErrors: 'counter-rate:PortRcvErrors',
};

/**
 * The major threshold of `counter` on `port` in events per hour: symbol errors at the IBTA BER
 * on the port's own active rate (as the symbol-errors finding judges it), else at the expected
 * rate; the other counters' thresholds do not depend on the rate.
 */
function majorPerHour(counter: string, port: WatchedPort, byConfig: Record<string, number>): number {
  if (counter === 'SymbolErrorCounter' && port.width && port.speed) {
    const gbps = nominalGbps(port.width as LinkWidth, port.speed as LinkSpeed);
    if (gbps > 0) return symbolErrorsPerHourAtBer(DEFAULT_THRESHOLDS.symbolBer.major, gbps);
  }
  return (byConfig[counter] ?? Infinity) * 3600;
}

/**
 * Per-bucket rates of every port with errors in the window: a bucket's rate is its errors over
 * the time its sweeps covered (from each sweep to the one before), so a bucket the collector
 * did not sweep is no point rather than a false zero, and a sweep without a stored delta (deltas
 * are sparse) counts as zero errors over its interval.
 */
export function bucketRates(
  sweeps: readonly { id: number; at: number }[],
  deltas: readonly { portId: number; counter: string; scanId: number; delta: number }[],
  from: number,
  bucketMs: number,
): Map<string, { portId: number; counter: string; points: RatePoint[] }> {
  const bucketOf = new Map<number, number>();
  const covered = new Map<number, number>();
  for (let i = 1; i < sweeps.length; i++) {
    const b = Math.floor((sweeps[i]!.at - from) / bucketMs);
    if (b < 0) continue;
    bucketOf.set(sweeps[i]!.id, b);
    covered.set(b, (covered.get(b) ?? 0) + (sweeps[i]!.at - sweeps[i - 1]!.at));
  }
  const sums = new Map<string, { portId: number; counter: string; byBucket: Map<number, number> }>();
  for (const d of deltas) {
    const b = bucketOf.get(d.scanId);
    if (b === undefined) continue;
    const k = `${d.portId}|${d.counter}`;
    let s = sums.get(k);
    if (!s) sums.set(k, (s = { portId: d.portId, counter: d.counter, byBucket: new Map() }));
    s.byBucket.set(b, (s.byBucket.get(b) ?? 0) + d.delta);
  }
  const out = new Map<string, { portId: number; counter: string; points: RatePoint[] }>();
  for (const [k, s] of sums) {
    const points: RatePoint[] = [];
    for (const [b, ms] of [...covered].sort((x, y) => x[0] - y[0])) {
      if (ms <= 0) continue;
      points.push({ at: from + (b + 0.5) * bucketMs, perHour: ((s.byBucket.get(b) ?? 0) * 3_600_000) / ms });
    }
    out.set(k, { portId: s.portId, counter: s.counter, points });
  }
  return out;
}

/** The watch list as of `now`: rising error rates still below the major threshold, soonest crossing first. */
export function watchList(db: Db, config: Config, names: NameBook, now = Date.now()): WatchReply {
  const w = config.watch;
  const bucketMs = w.bucketMinutes * 60_000;
  const windowMs = w.windowHours * 3_600_000;
  // Buckets aligned to the bucket size, so the same sweep stays in the same bucket between requests.
  const from = Math.floor((now - windowMs) / bucketMs) * bucketMs;
  const thresholds = rateThresholds(config);
  const series = bucketRates(sweepsSince(db, from), errorDeltasSince(db, from, WATCH_COUNTERS), from, bucketMs);
  const rules = { ...DEFAULT_TREND_RULES, minPoints: w.minPoints, horizonHours: w.horizonDays * 24 };
  const entries: WatchEntry[] = [];
  for (const s of series.values()) {
    // Most ports with a few errors have too few points for a trend: no port lookup for them.
    if (s.points.filter((x) => x.perHour > 0).length < rules.minNonZero) continue;
    const p = portWithPeer(db, s.portId);
    if (!p) continue;
    const thresholdPerHour = majorPerHour(s.counter, p, thresholds);
    const v = watchVerdict(s.points, thresholdPerHour, now, rules);
    if (!v || v.crossAt === null) continue;
    const portKey = `${p.g}/${p.n}`;
    const finding = activeFindingSeverity(db, KIND[s.counter]!, `port:${portKey}`);
    // A major or critical finding puts the port on the worklist; the watch list is for what is not there yet.
    if (finding === 'major' || finding === 'critical') continue;
    entries.push({
      portKey,
      port: { guid: p.g, port: p.n, name: names.name(p.g, p.desc ?? undefined) },
      remote:
        p.rg === null || p.rn === null
          ? null
          : { guid: p.rg, port: p.rn, name: names.name(p.rg, p.rdesc ?? undefined) },
      counter: s.counter,
      rateNowPerHour: v.rateNowPerHour,
      fitNowPerHour: v.fitNowPerHour,
      slopePerHourPerHour: v.slopePerHourPerHour,
      tau: v.tau,
      thresholdPerHour,
      projectedCrossAt: Math.round(v.crossAt),
      points: v.points,
      series: s.points,
      finding: (finding as Severity | undefined) ?? null,
    });
  }
  entries.sort((a, b) => a.projectedCrossAt - b.projectedCrossAt || (a.portKey < b.portKey ? -1 : 1));
  return {
    generatedAt: now,
    windowHours: w.windowHours,
    bucketMinutes: w.bucketMinutes,
    method: 'theil-sen',
    entries,
  };
}
