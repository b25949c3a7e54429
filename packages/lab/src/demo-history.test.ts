import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_LABELS, demoHistoryPlan, fixtureOfNight, HISTORY_FIXTURES, NCCL_FIXTURES } from './demo-history.ts';

// Importing the plan through a real collector: apps/collector/test/demo.integration.test.ts.
describe('demoHistoryPlan()', () => {
  const now = Date.UTC(2026, 4, 20, 15, 30);
  const plan = demoHistoryPlan(now);

  it('is one nightly run for each of the 28 nights before now, oldest first', () => {
    expect(plan).toHaveLength(28);
    expect(plan.every((r) => r.finishedAt < now && r.finishedAt > r.startedAt)).toBe(true);
    expect(plan.map((r) => r.startedAt)).toEqual([...plan.map((r) => r.startedAt)].sort((a, b) => a - b));
    expect(new Date(plan[0]!.startedAt).toISOString()).toBe('2026-04-22T02:10:00.000Z');
    expect(new Date(plan.at(-1)!.startedAt).toISOString()).toBe('2026-05-19T02:10:00.000Z');
    expect(new Set(plan.map((r) => r.name)).size).toBe(28);
  });

  it('tells a story: passing nights, a few marginal ones, three nights of GDR off in the middle', () => {
    expect(plan.filter((r) => r.fixture === HISTORY_FIXTURES.gdrOff)).toHaveLength(3);
    expect(plan.filter((r) => r.fixture === HISTORY_FIXTURES.real)).toHaveLength(3);
    expect(fixtureOfNight(1)).toBe(HISTORY_FIXTURES.good);
    expect(fixtureOfNight(13)).toBe(HISTORY_FIXTURES.gdrOff);
  });

  it('uses fixtures of the repository and labels every run as demo data', () => {
    for (const f of Object.values(HISTORY_FIXTURES)) expect(existsSync(join(NCCL_FIXTURES, f)), f).toBe(true);
    expect(DEMO_LABELS.demo).toBe(true);
  });
});
