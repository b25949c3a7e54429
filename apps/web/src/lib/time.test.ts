import { describe, expect, it } from 'vitest';
import { formatAgo, formatDuration, formatLocal, formatShort, formatUtc } from './time.ts';

const T = Date.UTC(2026, 10, 29, 17, 0, 0); // 2026-11-29 17:00:00 UTC

describe('time formatting', () => {
  it('formats UTC for the hover title', () => {
    expect(formatUtc(T)).toBe('2026-11-29 17:00:00 UTC');
  });
  it('formats in a given zone', () => {
    expect(formatLocal(T, 'Europe/Berlin')).toBe('2026-11-29 18:00:00');
    expect(formatLocal(T, 'America/Los_Angeles')).toBe('2026-11-29 09:00:00');
    expect(formatShort(T, 'Asia/Tokyo')).toBe('11-30 02:00');
  });
  it('formats midnight as 00, not 24', () => {
    expect(formatLocal(Date.UTC(2026, 0, 1, 0, 0, 5), 'UTC')).toBe('2026-01-01 00:00:05');
  });
  it('formats durations', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(45)).toBe('45 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(7_620_000)).toBe('2 h 07 min');
  });
  it('formats relative times', () => {
    expect(formatAgo(T - 10_000, T)).toBe('just now');
    expect(formatAgo(T - 300_000, T)).toBe('5 min ago');
    expect(formatAgo(T - 3 * 3_600_000, T)).toBe('3 h ago');
    expect(formatAgo(T - 2 * 86_400_000, T)).toBe('2 d ago');
    expect(formatAgo(T + 600_000, T)).toBe('in 10 min');
  });
});
