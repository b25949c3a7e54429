// Named tokens and the finding history: who acknowledged or resolved a finding is the name of the
// token sent (IBWATCH_TOKENS), why is the note; the collector's own steps are in the same history.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingDetail, FindingRow, Verdict } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { syncFindings } from '../scans/findings-sync.ts';
import { pruneOnce } from '../scans/maintenance.ts';
import { appOf, seedFabric, testContext, TOKEN } from '../test-support.ts';

const ALICE = 'alice-token-0123456789';
const NOC = 'noc-wall-screen-0123456789';
const ctx = testContext({ IBWATCH_TOKENS: `alice:${ALICE},noc:${NOC}` });
let app: FastifyInstance;
beforeAll(async () => {
  await seedFabric(ctx);
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (url: string, token: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: as(token), payload });
const findings = async (q: string) => (await app.inject(`/api/findings${q}`)).json<FindingRow[]>();

describe('finding history', () => {
  it('GET /api/findings/:id has the finding and its history: opened by the collector', async () => {
    const [f] = await findings('?kind=symbol-errors');
    const r = await app.inject(`/api/findings/${f!.id}`);
    expect(r.statusCode).toBe(200);
    const d = r.json<FindingDetail>();
    expect(d).toMatchObject({ id: f!.id, kind: 'symbol-errors', state: 'open' });
    expect(d.history).toEqual([{ at: d.firstSeen, event: 'opened', by: null, note: null }]);
    expect((await app.inject('/api/findings/999999')).statusCode).toBe(404);
    expect((await app.inject('/api/findings/x')).statusCode).toBe(400);
  });

  it('acknowledge and resolve record the token name and the note, in order', async () => {
    const [f] = await findings('?kind=symbol-errors');
    const t0 = Date.now();
    const ack = await post(`/api/findings/${f!.id}/ack`, ALICE, { note: '  reseating the cable in R7  ' });
    expect(ack.statusCode).toBe(200);
    expect(ack.json<FindingDetail>()).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'alice' });
    // A second acknowledgement changes nothing and adds no entry.
    expect((await post(`/api/findings/${f!.id}/ack`, NOC, { note: 'me too' })).statusCode).toBe(200);
    const res = await post(`/api/findings/${f!.id}/resolve`, NOC, { note: 'transceiver swapped' });
    const d = res.json<FindingDetail>();
    expect(d.state).toBe('resolved');
    expect(d.history.map(({ event, by, note }) => ({ event, by, note }))).toEqual([
      { event: 'opened', by: null, note: null },
      { event: 'acknowledged', by: 'alice', note: 'reseating the cable in R7' },
      { event: 'resolved', by: 'noc', note: 'transceiver swapped' },
    ]);
    expect(d.history[1]!.at).toBeGreaterThanOrEqual(t0);
    expect(d.history[2]!.at).toBeGreaterThanOrEqual(d.history[1]!.at);
    expect((await app.inject(`/api/findings/${f!.id}`)).json<FindingDetail>().history).toEqual(d.history);
  });

  it('IBWATCH_TOKEN still works alongside IBWATCH_TOKENS, acting as admin', async () => {
    const [f] = await findings('?state=open');
    const d = (await post(`/api/findings/${f!.id}/ack`, TOKEN)).json<FindingDetail>();
    expect(d.history.at(-1)).toMatchObject({ event: 'acknowledged', by: 'admin', note: null });
    expect((await post(`/api/findings/${f!.id}/resolve`, 'alice-token-0123456788')).statusCode).toBe(401);
  });

  it('GET /api/whoami names the token sent, null without a valid one', async () => {
    expect((await app.inject({ url: '/api/whoami', headers: as(NOC) })).json()).toEqual({ name: 'noc' });
    expect((await app.inject({ url: '/api/whoami', headers: as(TOKEN) })).json()).toEqual({ name: 'admin' });
    expect((await app.inject('/api/whoami')).json()).toEqual({ name: null });
    expect((await app.inject({ url: '/api/whoami', headers: as(`${NOC}x`) })).json()).toEqual({ name: null });
  });

  it("records the collector's own steps: cleared, observed again, resolved automatically", () => {
    const repo = createFindingsRepo(ctx.db);
    // A condition (an event would hold for its window, see findings-events.test.ts).
    const inScope = (k: string) => k === 'symbol-errors';
    const again: Verdict = {
      kind: 'symbol-errors',
      severity: 'major',
      subject: { kind: 'port', port: { nodeGuid: '0x00000000000fee01', portNum: 1 } },
      title: 'Symbol errors on a test port',
      evidence: {},
    };
    syncFindings(repo, [again], inScope, Date.now() - 60_000, 3_600_000);
    const [f] = repo.list({
      state: 'open',
      kind: 'symbol-errors',
      subjectKeyPrefix: 'port:0x00000000000fee01',
      limit: 1,
    });
    expect(f).toBeDefined();
    const t = Date.now();
    const hour = 3_600_000;
    syncFindings(repo, [], inScope, t, hour); // not observed: cleared
    syncFindings(repo, [again], inScope, t + 60_000, hour); // observed again
    syncFindings(repo, [], inScope, t + 120_000, hour); // cleared again
    syncFindings(repo, [], inScope, t + 120_000 + hour / 2, hour); // still waiting: nothing
    const r = syncFindings(repo, [], inScope, t + 120_000 + hour, hour); // clear for an hour: resolved
    expect(r.resolved).toBeGreaterThanOrEqual(1);
    expect(repo.history(f!.id).map(({ at, event, by }) => [at - t, event, by])).toEqual([
      [f!.firstSeen - t, 'opened', null],
      [0, 'cleared', null],
      [60_000, 'observed-again', null],
      [120_000, 'cleared', null],
      [120_000 + hour, 'auto-resolved', null],
    ]);
  });

  it('retention deletes a resolved finding together with its history', () => {
    const repo = createFindingsRepo(ctx.db);
    const [f] = repo.list({ state: 'resolved', limit: 1 });
    expect(repo.history(f!.id).length).toBeGreaterThan(1);
    const pruned = pruneOnce(ctx.db, ctx.config, Date.now() + (ctx.config.retention.rollupDays + 1) * 86_400_000);
    expect(pruned.findings).toBeGreaterThan(0);
    expect(repo.get(f!.id)).toBeNull();
    expect(repo.history(f!.id)).toEqual([]);
  });
});
