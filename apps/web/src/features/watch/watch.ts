/**
 * Pure helpers of the watch view: how to say a rate, a trend and a projected crossing. Rendering
 * is in WatchPage.tsx.
 */
import type { WatchEntry, WatchReply } from '@ibwatch/fabric';

/** `0.5/h`, `12/h`, `1,440/h`. */
export function perHourText(v: number): string {
  if (v === 0) return '0/h';
  if (Math.abs(v) < 10) return `${Number(v.toPrecision(2))}/h`;
  return `${Math.round(v).toLocaleString('en-US')}/h`;
}

/** The slope in words: `+12/h per hour`, `+0.3/h per day` for slow rises (easier to read). */
export function trendText(e: Pick<WatchEntry, 'slopePerHourPerHour'>): string {
  const s = e.slopePerHourPerHour;
  if (Math.abs(s) < 0.1) return `+${perHourText(s * 24).replace(/^-/, '')} per day`;
  return `+${perHourText(s)} per hour`;
}

/** How far away the projected crossing is: `in 40 min`, `in 7 h`, `in 3 days`, `due now`. */
export function crossingText(at: number, now: number): string {
  const min = Math.round((at - now) / 60_000);
  if (min <= 0) return 'due now';
  if (min < 60) return `in ${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `in ${h} h`;
  return `in ${Math.round(h / 24)} days`;
}

/** `N ports on watch` (distinct ports; one port may be watched for two counters). */
export function watchCountText(r: Pick<WatchReply, 'entries'>): string {
  const n = new Set(r.entries.map((e) => e.portKey)).size;
  return `${n} port${n === 1 ? '' : 's'} on watch`;
}
