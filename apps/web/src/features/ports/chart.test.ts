import { describe, expect, it } from 'vitest';
import { chartDomain, formatPerHour, MIN_SPAN_MS, niceCeil, perHour, tickLabel, timeTicks } from './chart.ts';

const NOW = Date.UTC(2026, 11, 1, 3, 50, 0);
const H = 3_600_000;

describe('rates per hour', () => {
  it('converts the API’s per-second rates and formats them compactly', () => {
    expect(perHour(0.0012)).toBeCloseTo(4.32);
    expect(formatPerHour(0)).toBe('0/h');
    expect(formatPerHour(perHour(0.0012))).toBe('4.32/h');
    expect(formatPerHour(0.0043)).toBe('4.3e-3/h');
    expect(formatPerHour(12345)).toBe('12,345/h');
    expect(formatPerHour(3.8e5)).toBe('380,000/h');
    expect(formatPerHour(2.5e9)).toBe('2.5e+9/h');
  });
});

describe('chartDomain()', () => {
  it('starts at the port’s first observation, so fresh data fills the chart', () => {
    // Seen for 40 minutes, range 24 h: 40 minutes of axis, not 24 h with a sliver at the right.
    expect(chartDomain(NOW - 40 * 60_000, NOW, 24 * H)).toEqual([NOW - 40 * 60_000, NOW]);
    expect(chartDomain(NOW - 30 * 24 * H, NOW, 24 * H)).toEqual([NOW - 24 * H, NOW]);
  });
  it('keeps a minimal span and any point that predates the observation', () => {
    expect(chartDomain(NOW - 60_000, NOW, 24 * H)).toEqual([NOW - MIN_SPAN_MS, NOW]);
    expect(chartDomain(NOW - 40 * 60_000, NOW, 24 * H, NOW - 50 * 60_000)).toEqual([NOW - 50 * 60_000, NOW]);
  });
});

describe('timeTicks()', () => {
  it('gives several round ticks on any span (one tick on 24 h of fresh data before)', () => {
    const ticks = timeTicks(NOW - 40 * 60_000, NOW, 6, 0);
    expect(ticks.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual([
      '03:10',
      '03:20',
      '03:30',
      '03:40',
      '03:50',
    ]);
    expect(timeTicks(NOW - 24 * H, NOW, 6, 0).map((t) => new Date(t).getUTCHours())).toEqual([6, 12, 18, 0]);
    expect(timeTicks(NOW - MIN_SPAN_MS, NOW, 6, 0).length).toBeGreaterThanOrEqual(4);
    expect(timeTicks(NOW - 30 * 24 * H, NOW, 6, 0).length).toBeGreaterThanOrEqual(4);
  });
  it('lands on round local times in the browser’s zone', () => {
    // UTC+05:30: hour ticks at local :00, i.e. UTC :30.
    const ticks = timeTicks(NOW - 6 * H, NOW, 6, 5.5 * H);
    expect(ticks.every((t) => new Date(t).getUTCMinutes() === 30)).toBe(true);
  });
  it('labels ticks with the time of day up to a day, with the date beyond', () => {
    expect(tickLabel('12-01 03:45', H)).toBe('03:45');
    expect(tickLabel('12-01 03:45', 7 * 24 * H)).toBe('12-01 03:45');
  });
});

describe('niceCeil()', () => {
  it('rounds an axis top up to 1, 2 or 5 × 10^n', () => {
    expect(niceCeil(415_617)).toBe(500_000);
    expect(niceCeil(720)).toBe(1000);
    expect(niceCeil(150)).toBe(200);
    expect(niceCeil(0.004)).toBe(0.005);
    expect(niceCeil(2000)).toBe(2000);
    expect(niceCeil(0)).toBe(1);
  });
});
