import { describe, expect, it } from 'vitest';
import { pollDeadlineMs } from './useApi.ts';

describe('pollDeadlineMs()', () => {
  it('fails a poll left unanswered before the next one is due, and never waits over 30 s', () => {
    expect(pollDeadlineMs(10_000)).toBe(9_000);
    expect(pollDeadlineMs(15_000)).toBe(13_500);
    expect(pollDeadlineMs(300_000)).toBe(30_000);
  });
});
