import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { SmRelearnReply, SmReply } from '@ibwatch/fabric';
import { appOf, auth, SAMPLE_A, SAMPLE_B, testContext } from '../test-support.ts';

const opened: { app: FastifyInstance; cleanup: () => void }[] = [];
afterAll(async () => {
  for (const o of opened) {
    await o.app.close();
    o.cleanup();
  }
});

/** An app over run b (the older of the two real runs) imported, so that importing run a is news. */
async function appWith(env: Record<string, string> = {}) {
  const ctx = testContext(env);
  await ctx.scans.importIbdiagnet(SAMPLE_B, 'cli');
  const app = await appOf(ctx);
  opened.push({ app, cleanup: ctx.cleanup });
  return { ctx, app };
}

const relearn = (app: FastifyInstance, headers: Record<string, string> = auth) =>
  app.inject({ method: 'POST', url: '/api/sms/relearn', headers });

describe('SM observations of imported ibdiagnet runs', () => {
  it('are dated when the run ran, and an older run imported later changes nothing', async () => {
    const { ctx, app } = await appWith();
    await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    const a = (await app.inject('/api/sms')).json<SmReply>();
    expect(a.summary.observedAt).toBe(Date.parse('2025-03-31T23:43:18Z'));
    const older = await ctx.scans.importIbdiagnet(SAMPLE_B, 'cli');
    expect(Object.keys(older.summary).some((k) => k.startsWith('sm.'))).toBe(false);
    expect((await app.inject('/api/sms')).json<SmReply>()).toEqual(a);
  });
});

describe('POST /api/sms/relearn', () => {
  it('needs the token', async () => {
    const { app } = await appWith();
    expect((await relearn(app, {})).statusCode).toBe(401);
  });

  it('asks the next SM observation to learn the designated SMs (no SM scan where the source runs none)', async () => {
    const { ctx, app } = await appWith();
    const r = await relearn(app);
    expect(r.statusCode).toBe(200);
    expect(r.json<SmRelearnReply>()).toEqual({
      scan: null,
      designation: {
        source: 'learned',
        guids: ['0xb0cf0e0300d33fc0'],
        learnedAt: expect.any(Number),
        relearnPending: true,
        neverSeen: [],
      },
    });
    await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    const after = (await app.inject('/api/sms')).json<SmReply>();
    expect(after.designation.relearnPending).toBe(false);
    expect(after.events.some((e) => e.kind === 'learned' && e.detail.startsWith('designated SMs re-learned'))).toBe(
      true,
    );
  });

  it('refuses with 409 when IBWATCH_SM_GUIDS sets the designated SMs, and lists them as configured', async () => {
    const { app } = await appWith({ IBWATCH_SM_GUIDS: '0xb0cf0e0300d33fc0,0x0002c90300000001' });
    const r = await relearn(app);
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toContain('IBWATCH_SM_GUIDS');
    const sms = (await app.inject('/api/sms')).json<SmReply>();
    expect(sms.designation).toEqual({
      source: 'config',
      guids: ['0xb0cf0e0300d33fc0', '0x0002c90300000001'],
      learnedAt: null,
      relearnPending: false,
      neverSeen: ['0x0002c90300000001'],
    });
    expect(sms.summary).toMatchObject({ status: 'no-standby', missingCount: 1 });
    expect(sms.lastScan).toBeNull();
  });
});
