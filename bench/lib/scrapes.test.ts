import { describe, expect, it } from 'vitest';
import { scrapeAtRandom, scrapeRow } from './scrapes.ts';
import { verdict } from './stats.ts';

describe('scrapes at random moments', () => {
  it('waits a random time in [0, spread) before each scrape and times every scrape', async () => {
    const draws = [0, 0.5, 0.999, 0.25];
    const slept: number[] = [];
    let calls = 0;
    const t = await scrapeAtRandom(
      4,
      20_000,
      async () => {
        calls++;
      },
      () => draws.shift()!,
      async (ms) => {
        slept.push(ms);
      },
    );
    expect(calls).toBe(4);
    expect(slept).toEqual([0, 10_000, 19_980, 5_000]);
    expect(t.waitsMs).toEqual(slept);
    expect(t.ms).toHaveLength(4);
    for (const ms of t.ms) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('judges the p95, not the median: one slow scrape in twenty is enough to miss', () => {
    const fast = Array.from({ length: 18 }, () => 100);
    const target = { op: '<' as const, value: 500 };
    const row = (ms: number[]) => scrapeRow({ stage: 'metrics', what: 'scrape', size: '45k', target }, ms, 'x');
    const ok = row([...fast, 120, 900]);
    expect(ok.value).toBe(120);
    expect(verdict(ok)).toBe('ok');
    expect(ok.note).toContain('median 100 ms');
    expect(ok.note).toContain('max 900 ms');
    const missed = row([...fast, 800, 900]);
    expect(missed.value).toBe(800);
    expect(verdict(missed)).toMatch(/MISSED/);
    expect(missed.runs).toBe(20);
  });
});
