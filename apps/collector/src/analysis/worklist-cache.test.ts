import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFabric, testContext } from '../test-support.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { worklist } from './worklist.ts';
import { WorklistCache } from './worklist-cache.ts';

const ctx = testContext();
beforeAll(() => seedFabric(ctx));
afterAll(() => ctx.cleanup());

describe('WorklistCache', () => {
  it('serves what worklist() builds, filtered and ranked, until a write changes a finding', () => {
    const cache = new WorklistCache(ctx.db, ctx.names);
    const now = Date.now();
    expect(cache.get({}, now)).toEqual(worklist(ctx.db, ctx.names, {}, now));
    expect(cache.get({ severity: 'minor' }, now)).toEqual(worklist(ctx.db, ctx.names, { severity: 'minor' }, now));
    const first = cache.get({}, now)[0]!;
    expect(first.state).toBe('open');

    for (const id of first.findingIds) createFindingsRepo(ctx.db).acknowledge(id, 'tech', now);
    const after = cache.get({}, now);
    expect(after).toEqual(worklist(ctx.db, ctx.names, {}, now));
    expect(after.find((e) => e.linkKey === first.linkKey)?.state).not.toBe('open');
  });

  it('rebuilds when a fixed link leaves the 7-day window with no write at all', () => {
    const cache = new WorklistCache(ctx.db, ctx.names);
    const repo = createFindingsRepo(ctx.db);
    const now = Date.now();
    const entry = cache.get({}, now)[0]!;
    for (const id of entry.findingIds) repo.resolve(id, now);
    expect(cache.get({ state: 'resolved' }, now).map((e) => e.linkKey)).toContain(entry.linkKey);
    const later = now + 8 * 86_400_000;
    expect(cache.get({}, later)).toEqual(worklist(ctx.db, ctx.names, {}, later));
  });
});
