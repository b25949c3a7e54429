/**
 * Early warning: is a port's error rate rising towards the major threshold while still below it?
 *
 * The series is one point per time bucket: errors per hour over the part of the bucket that PM
 * sweeps covered. The slope is Theil-Sen (the median of the slopes of all point pairs), not least
 * squares: one burst (a reseat nearby, a bad sweep) moves a least-squares line by its whole
 * weight, but the median of pair slopes only when more than ~29% of the points are outliers. Its
 * cost is O(n^2) pairs, fine for the tens of buckets of a window. A trend must also be monotone
 * enough (Kendall's tau) and rest on enough points and time, so noise stays off the list.
 */

/** One bucket of a port's counter: its middle (epoch ms) and its rate in events per hour. */
export interface RatePoint {
  at: number;
  perHour: number;
}

export interface TrendRules {
  /** Fewer buckets with data than this: no trend. */
  minPoints: number;
  /** Fewer buckets with a non-zero rate than this: no trend (a few errors are noise). */
  minNonZero: number;
  /** The points must span at least this many hours. */
  minSpanHours: number;
  /** Kendall's tau (concordant minus discordant pairs, over all pairs) at least this. */
  minTau: number;
  /** A projected crossing further away than this is not a warning. */
  horizonHours: number;
}

export const DEFAULT_TREND_RULES: TrendRules = {
  minPoints: 4,
  minNonZero: 3,
  minSpanHours: 3,
  minTau: 0.5,
  horizonHours: 30 * 24,
};

export interface Trend {
  /** Theil-Sen slope: events per hour, per hour. */
  slopePerHourPerHour: number;
  /** The fitted rate at `now` (events per hour). */
  fitNowPerHour: number;
  /** The rate of the newest bucket (events per hour). */
  rateNowPerHour: number;
  tau: number;
  points: number;
}

export interface WatchVerdict extends Trend {
  /** When the fitted line crosses the threshold (epoch ms); null when it never does. */
  crossAt: number | null;
}

/** Median of a non-empty array (sorted copy). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The Theil-Sen fit of `points` at `now`, or null when there are fewer than two distinct times. */
export function theilSen(points: readonly RatePoint[], now: number): Trend | null {
  const pts = [...points].sort((a, b) => a.at - b.at);
  const slopes: number[] = [];
  let conc = 0;
  let disc = 0;
  let pairs = 0;
  for (let i = 0; i < pts.length; i++)
    for (let j = i + 1; j < pts.length; j++) {
      const dx = (pts[j]!.at - pts[i]!.at) / 3_600_000;
      if (dx <= 0) continue;
      const dy = pts[j]!.perHour - pts[i]!.perHour;
      slopes.push(dy / dx);
      pairs++;
      if (dy > 0) conc++;
      else if (dy < 0) disc++;
    }
  if (slopes.length === 0) return null;
  const slope = median(slopes);
  const intercept = median(pts.map((p) => p.perHour - (slope * (p.at - now)) / 3_600_000));
  return {
    slopePerHourPerHour: slope,
    fitNowPerHour: intercept,
    rateNowPerHour: pts[pts.length - 1]!.perHour,
    tau: (conc - disc) / pairs,
    points: pts.length,
  };
}

/**
 * The watch verdict of one series against a threshold (events per hour): a verdict when the
 * rate rises (positive slope, tau and enough points and span), is still below the threshold
 * (newest bucket and fitted value), and the fitted line crosses it within the horizon; else null.
 */
export function watchVerdict(
  points: readonly RatePoint[],
  thresholdPerHour: number,
  now: number,
  rules: TrendRules = DEFAULT_TREND_RULES,
): WatchVerdict | null {
  if (points.length < rules.minPoints) return null;
  if (points.filter((p) => p.perHour > 0).length < rules.minNonZero) return null;
  const ats = points.map((p) => p.at);
  if ((Math.max(...ats) - Math.min(...ats)) / 3_600_000 < rules.minSpanHours) return null;
  const t = theilSen(points, now);
  if (!t || !(t.slopePerHourPerHour > 0) || t.tau < rules.minTau) return null;
  if (t.rateNowPerHour >= thresholdPerHour) return null;
  const fit = Math.max(0, t.fitNowPerHour);
  // Over the threshold on the fitted line but not in the newest bucket: the crossing is due now.
  const hours = fit >= thresholdPerHour ? 0 : (thresholdPerHour - fit) / t.slopePerHourPerHour;
  if (hours > rules.horizonHours) return null;
  return { ...t, crossAt: now + hours * 3_600_000 };
}

/** The counters the watch list follows (the field's early signs of a failing cable or optic). */
export const WATCH_COUNTERS = ['SymbolErrorCounter', 'LinkErrorRecoveryCounter', 'PortRcvErrors'] as const;
