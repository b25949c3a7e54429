import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow, WorklistEntry } from '@ibwatch/fabric';
import { NameBook } from '../names.ts';
import { appOf, auth, ERROR_PORT, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
// A node-name map entry that a spreadsheet would run as a formula if exported verbatim.
const HOSTILE = '=HYPERLINK("http://evil.example","spine")';
beforeAll(async () => {
  await seedFabric(ctx);
  app = await appOf(ctx, NameBook.fromMap([[ERROR_PORT.nodeGuid, { name: HOSTILE, rack: 'R7' }]]));
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});
const findings = async (q = '') => (await app.inject(`/api/findings${q}`)).json<FindingRow[]>();

describe('GET /api/findings', () => {
  it('lists findings worst first and filters by state, severity and kind', async () => {
    const all = await findings();
    expect(all.length).toBeGreaterThan(3);
    const rank = { critical: 0, major: 1, minor: 2, info: 3 };
    expect(all.map((f) => rank[f.severity])).toEqual([...all.map((f) => rank[f.severity])].sort((a, b) => a - b));
    expect((await findings('?severity=minor')).every((f) => f.severity === 'minor')).toBe(true);
    expect((await findings('?kind=symbol-errors')).map((f) => f.subjectKey)).toEqual([
      `port:${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`,
    ]);
    expect((await findings('?state=active')).length).toBe(all.filter((f) => f.state !== 'resolved').length);
  });

  it('does not expose internal fields', async () => {
    const [f] = await findings('?limit=1');
    expect(f).not.toHaveProperty('cleanSweeps');
    expect(f).not.toHaveProperty('subject');
  });

  it('refuses a bad state or limit with 400', async () => {
    expect((await app.inject('/api/findings?state=closed')).statusCode).toBe(400);
    expect((await app.inject('/api/findings?limit=0')).statusCode).toBe(400);
  });
});

describe('POST /api/findings/:id/ack and /resolve', () => {
  it('refuses without a token (401, WWW-Authenticate) and with a wrong one', async () => {
    const [f] = await findings('?kind=symbol-errors');
    const none = await app.inject({ method: 'POST', url: `/api/findings/${f!.id}/ack`, payload: { note: 'on it' } });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await app.inject({
      method: 'POST',
      url: `/api/findings/${f!.id}/ack`,
      payload: { note: 'on it' },
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await findings('?kind=symbol-errors'))[0]!.state).toBe('open');
  });

  it('acknowledges, then resolves, with the token (IBWATCH_TOKEN acts as admin), without a body too', async () => {
    const [f] = await findings('?kind=link-error-recovery');
    const ack = await app.inject({ method: 'POST', url: `/api/findings/${f!.id}/ack`, headers: auth });
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({ id: f!.id, state: 'acknowledged', acknowledgedBy: 'admin' });
    const res = await app.inject({ method: 'POST', url: `/api/findings/${f!.id}/resolve`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: f!.id, state: 'resolved', resolvedAt: expect.any(Number) });
  });

  it('answers 404 for an unknown finding, 400 for a name in the body or a note too long', async () => {
    const post = (url: string, payload?: object) => app.inject({ method: 'POST', url, payload, headers: auth });
    expect((await post('/api/findings/999999/ack', { note: 'x' })).statusCode).toBe(404);
    expect((await post('/api/findings/999999/resolve')).statusCode).toBe(404);
    const [f] = await findings('?state=open');
    const named = await post(`/api/findings/${f!.id}/ack`, { by: 'alice' });
    expect(named.statusCode).toBe(400);
    expect(named.json().message).toBe(
      '"by" is no longer accepted: the finding is acknowledged under the name of the token sent (admin); give ' +
        'the reason as "note"',
    );
    expect((await post(`/api/findings/${f!.id}/ack`, { note: 'x'.repeat(1001) })).statusCode).toBe(400);
    expect((await post(`/api/findings/${f!.id}/ack`, { why: 'typo' })).statusCode).toBe(400);
    expect((await findings(`?state=open`)).map((x) => x.id)).toContain(f!.id);
  });
});

describe('GET /api/worklist', () => {
  it('has one entry per physical link with both ends, ranked', async () => {
    const w = (await app.inject('/api/worklist')).json<WorklistEntry[]>();
    expect(w.length).toBeGreaterThan(0);
    expect(w.map((e) => e.rank)).toEqual(w.map((_, i) => i + 1));
    const spine = w.find(
      (e) => [e.a.guid, e.b?.guid].includes(ERROR_PORT.nodeGuid) && [e.a.port, e.b?.port].includes(ERROR_PORT.portNum),
    );
    expect(spine).toBeDefined();
    expect(spine!.b).not.toBeNull();
    expect(spine!.reasons.length).toBeGreaterThan(0);
    expect(new Set(w.map((e) => e.linkKey)).size).toBe(w.length);
  });

  it('filters by rack and by severity', async () => {
    const r7 = (await app.inject('/api/worklist?rack=R7')).json<WorklistEntry[]>();
    expect(r7.length).toBeGreaterThan(0);
    expect(r7.every((e) => e.a.rack === 'R7' || e.b?.rack === 'R7')).toBe(true);
    expect((await app.inject('/api/worklist?severity=fatal')).statusCode).toBe(400);
  });

  it('exports CSV with formula-looking names escaped', async () => {
    const r = await app.inject('/api/worklist.csv');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(
      /^attachment; filename="ibwatch-worklist-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // A UTF-8 BOM first, or Excel shows the action ladder's `→` as `â†’`.
    expect([...r.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(r.body).toContain(' → swap the transceiver');
    const lines = r.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'rank,severity,state,end_a,guid_a,port_a,lid_a,rack_a,u_a,end_b,guid_b,port_b,lid_b,rack_b,u_b,' +
        'reasons,action,cable,first_seen_utc,last_seen_utc,impact_hosts,impact_gpus,slurm_jobs,drain_first',
    );
    expect(r.body).toContain(`"'=HYPERLINK(""http://evil.example"",""spine"")"`);
    expect(r.body).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
