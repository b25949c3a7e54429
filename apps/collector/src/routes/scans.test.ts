import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { appOf, auth, SAMPLE_A, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
let imported: ScanRow;
beforeAll(async () => {
  imported = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

describe('/api/scans', () => {
  it('lists scans newest first and filters by kind and status', async () => {
    const list = (await app.inject('/api/scans')).json<ScanRow[]>();
    expect(list[0]).toMatchObject({ id: imported.id, kind: 'import-ibdiagnet', status: 'partial' });
    expect((await app.inject('/api/scans?kind=pm')).json()).toEqual([]);
    expect((await app.inject('/api/scans?status=partial')).json<ScanRow[]>().map((s) => s.id)).toEqual([imported.id]);
    expect((await app.inject('/api/scans?kind=backup')).statusCode).toBe(400);
  });

  it('returns one scan with its warnings, 404 for an unknown id', async () => {
    const r = await app.inject(`/api/scans/${imported.id}`);
    expect(r.json<ScanRow>().warnings[0]).toContain('ibdiagnet2.cables');
    expect((await app.inject('/api/scans/424242')).statusCode).toBe(404);
    expect((await app.inject('/api/scans/abc')).statusCode).toBe(400);
  });

  it('refuses "scan now" without the token', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/scans', payload: { kind: 'pm' } });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('missing or wrong bearer token');
  });

  it('records a refused scan as failed when the source runs no tools (import-only)', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/scans', payload: { kind: 'pm' }, headers: auth });
    expect(r.statusCode).toBe(200);
    expect(r.json<ScanRow>()).toMatchObject({
      kind: 'pm',
      trigger: 'api',
      status: 'failed',
      error: expect.stringContaining('import-only'),
    });
    expect(
      (await app.inject({ method: 'POST', url: '/api/scans', payload: { kind: 'backup' }, headers: auth })).statusCode,
    ).toBe(400);
  });
});
