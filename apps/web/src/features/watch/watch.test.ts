import { describe, expect, it } from 'vitest';
import type { WatchEntry } from '@ibwatch/fabric';
import { crossingText, perHourText, trendText, watchCountText } from './watch.ts';

describe('watch view helpers', () => {
  it('says rates per hour, small ones with two digits', () => {
    expect(perHourText(0)).toBe('0/h');
    expect(perHourText(0.456)).toBe('0.46/h');
    expect(perHourText(1440.2)).toBe('1,440/h');
  });

  it('says a slow rise per day and a fast one per hour', () => {
    expect(trendText({ slopePerHourPerHour: 60 })).toBe('+60/h per hour');
    expect(trendText({ slopePerHourPerHour: 0.05 })).toBe('+1.2/h per day');
  });

  it('says how far the crossing is', () => {
    const now = 1_000_000_000;
    expect(crossingText(now - 5, now)).toBe('due now');
    expect(crossingText(now + 40 * 60_000, now)).toBe('in 40 min');
    expect(crossingText(now + 7 * 3_600_000, now)).toBe('in 7 h');
    expect(crossingText(now + 72 * 3_600_000, now)).toBe('in 3 days');
  });

  it('counts ports, not port-counter pairs', () => {
    const e = (portKey: string) => ({ portKey }) as WatchEntry;
    expect(watchCountText({ entries: [] })).toBe('0 ports on watch');
    expect(watchCountText({ entries: [e('0xa/1'), e('0xa/1'), e('0xb/2')] })).toBe('2 ports on watch');
    expect(watchCountText({ entries: [e('0xa/1')] })).toBe('1 port on watch');
  });
});
