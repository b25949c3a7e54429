/**
 * Pure shaping of the port page's rate charts: the unit (errors per hour), the time axis'
 * range and its ticks. The components only render what these return.
 */

/**
 * Every error rate the dashboard shows is per hour: the thresholds are set per hour
 * (PortRcvErrors ≥ 10/h, symbol errors 14.4/h for a 1e-14 BER at 400G), and the worklist, the
 * findings and the CSV word them so; "4.3/h" also reads better than "1.2e-3/s". The API's
 * `rate` fields stay per second (its documented unit); this is the one conversion.
 */
export const perHour = (perSecond: number): number => perSecond * 3600;

/** Compact per-hour text for axes and tooltips: 0 → "0/h", 0.0043 → "4.3e-3/h", 12.5 → "12.5/h". */
export function formatPerHour(h: number): string {
  if (h === 0) return '0/h';
  if (Math.abs(h) < 0.01 || Math.abs(h) >= 1e7) return `${h.toExponential(1)}/h`;
  if (Math.abs(h) < 100) return `${Number(h.toPrecision(3))}/h`;
  return `${Math.round(h).toLocaleString('en-US')}/h`;
}

/** The top of a rate axis: a round number (1, 2 or 5 × 10^n) above the data and the threshold. */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  return ([1, 2, 5, 10].find((m) => m * p >= x) ?? 10) * p;
}

/** The shortest time axis drawn: a port seen a minute ago still gets a readable axis. */
export const MIN_SPAN_MS = 10 * 60_000;

/**
 * The time axis: from when the port's samples can start (`observedFrom`: the later of the range
 * start and the port's first observation) to now. Before that there is no data, which is not
 * zero errors, so the axis does not draw it: a port first seen ten minutes ago fills the chart
 * instead of a sliver at the right of 24 hours.
 */
export function chartDomain(
  observedFrom: number,
  now: number,
  rangeMs: number,
  firstPointAt?: number,
): [number, number] {
  let from = Math.max(observedFrom, now - rangeMs);
  if (firstPointAt !== undefined) from = Math.min(from, firstPointAt);
  return [Math.min(from, now - MIN_SPAN_MS), now];
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STEPS = [
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/**
 * Ticks for a time axis: the smallest round step (1 min ... 7 d) that gives at most `max`
 * ticks, on round local times (`offsetMs`: the zone's offset from UTC, east positive).
 */
export function timeTicks(
  from: number,
  to: number,
  max = 6,
  offsetMs = -new Date(from).getTimezoneOffset() * MIN,
): number[] {
  const step = STEPS.find((s) => (to - from) / s <= max) ?? STEPS[STEPS.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil((from + offsetMs) / step) * step - offsetMs; t <= to; t += step) ticks.push(t);
  return ticks;
}

/** A tick's text: `14:05` on an axis of a day or less, `11-29 14:00` beyond (from formatShort). */
export function tickLabel(short: string, spanMs: number): string {
  return spanMs <= DAY ? short.slice(-5) : short;
}
