// An nccl-tests finding is about one run: once resolved nothing observes it again. It must leave
// "Findings now" (the overview's counts, state=current) when it is resolved, or the demo's resolved
// history and every run resolved by hand would be counted as a problem now, for good.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { appOf, auth, ncclFixture, testContext } from '../test-support.ts';

const GDR_OFF = 'all_reduce_perf.gdr-disabled.multinode.good.txt';
const ctx = testContext();
let app: FastifyInstance;
beforeAll(async () => {
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

const current = async () => (await app.inject('/api/findings?state=current&limit=1000')).json<FindingRow[]>();
const majorNow = async () =>
  (await app.inject('/api/summary')).json<{ findingsBySeverity: Record<string, number> }>().findingsBySeverity.major ??
  0;

describe('a resolved nccl-tests finding', () => {
  it('counts as current while open, and not once resolved', async () => {
    const { runId } = await ctx.scans.importNccl(ncclFixture(GDR_OFF), { cluster: 'a' }, GDR_OFF, 'api');
    const own = (await current()).filter((f) => f.subjectKey.startsWith(`run:${runId}`));
    expect(own.map((f) => f.kind)).toContain('nccl-host-memory');
    const before = await majorNow();
    expect(before).toBeGreaterThanOrEqual(own.filter((f) => f.severity === 'major').length);

    for (const f of own) {
      const r = await app.inject({ method: 'POST', url: `/api/findings/${f.id}/resolve`, headers: auth, payload: {} });
      expect(r.statusCode).toBe(200);
    }
    const after = await current();
    expect(after.filter((f) => f.subjectKey.startsWith(`run:${runId}`))).toEqual([]);
    expect(await majorNow()).toBe(before - own.filter((f) => f.severity === 'major').length);
    const resolved = (await app.inject(`/api/findings/${own[0]!.id}`)).json<FindingRow>();
    expect(resolved.state).toBe('resolved');
    expect(resolved.clearedAt).toBe(resolved.resolvedAt);
  });

  it('a link finding resolved by hand while still observed stays current', async () => {
    const repo = createFindingsRepo(ctx.db);
    const at = Date.now();
    const id = repo.open(
      {
        kind: 'link-degraded-width',
        severity: 'major',
        subjectType: 'link',
        subjectKey: 'link:0x0000000000000001/1',
        subject: {},
        title: 'width 4X->2X',
        short: null,
        evidence: {},
      },
      at,
    );
    repo.resolve(id, at + 1, 'alice');
    expect((await current()).map((f) => f.id)).toContain(id);
  });
});
