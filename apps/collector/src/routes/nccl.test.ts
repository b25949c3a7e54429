import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BandwidthReport, NcclRunDetailReply, NcclRunRow } from '@ibwatch/fabric';
import { appOf, auth, ncclFixture, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
let runs: { goodRun: number; badRun: number };
beforeAll(async () => {
  runs = await seedFabric(ctx);
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});
const post = (payload: unknown, headers: Record<string, string> = auth) =>
  app.inject({ method: 'POST', url: '/api/nccl-runs', payload: payload as object, headers });

describe('GET /api/nccl/runs', () => {
  it('lists runs newest first and filters by collective', async () => {
    const r = (await app.inject('/api/nccl/runs')).json<NcclRunRow[]>();
    expect(r.slice(0, 2).map((x) => x.id)).toEqual([runs.badRun, runs.goodRun]);
    expect((await app.inject('/api/nccl/runs?collective=alltoall')).json()).toEqual([]);
    expect((await app.inject('/api/nccl/runs?limit=0')).statusCode).toBe(400);
  });

  it('returns one run with rows, GDR evidence and its own findings; 404 when unknown', async () => {
    const r = await app.inject(`/api/nccl/runs/${runs.badRun}`);
    expect(r.statusCode).toBe(200);
    const d = r.json<NcclRunDetailReply>();
    expect(d.run).toMatchObject({ id: runs.badRun, verdict: 'host-memory-fallback', gdr: 'disabled' });
    expect(d.rows.length).toBeGreaterThan(20);
    expect(d.gdrEvidence.length).toBeGreaterThan(0);
    expect(d.correlatedFindings.map((f) => f.kind)).toContain('nccl-host-memory');
    expect((await app.inject('/api/nccl/runs/999999')).statusCode).toBe(404);
  });
});

describe('POST /api/nccl-runs', () => {
  const text = ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt');

  it('refuses an upload without the token', async () => {
    expect((await post({ text }, {})).statusCode).toBe(401);
  });

  it('refuses a body without text, with unknown labels or a path as name (400)', async () => {
    expect((await post({})).statusCode).toBe(400);
    expect((await post({ text, labels: { nodes: 'many' } })).statusCode).toBe(400);
    expect((await post({ text, name: '../../etc/passwd' })).statusCode).toBe(400);
  });

  it('imports a run and answers 201 with the stored run', async () => {
    const r = await post({
      text,
      name: 'job-42.txt',
      labels: { cluster: 'api', nodes: 2, runBy: 'ci' },
      startedAt: 1_700_000_000_000,
      finishedAt: 1_700_000_600_000,
    });
    expect(r.statusCode).toBe(201);
    const body = r.json<{ id: number; scan: { status: string }; run: NcclRunRow }>();
    expect(body.scan.status).toBe('ok');
    expect(body.run).toMatchObject({ id: body.id, verdict: 'pass', labels: { cluster: 'api', nodes: 2, runBy: 'ci' } });
  });

  it('answers 422 with the parse error for output that is not nccl-tests', async () => {
    const r = await post({ text: 'hello\nworld\n', name: 'notes.txt' });
    expect(r.statusCode).toBe(422);
    expect(r.json().message).toMatch(/^nccl-tests:notes\.txt/);
  });
});

describe('GET /api/reports/bandwidth', () => {
  it('reports pass rate and best/median/worst per collective', async () => {
    const r = (await app.inject('/api/reports/bandwidth')).json<BandwidthReport>();
    expect(r.runs).toBeGreaterThanOrEqual(2);
    expect(r.passed).toBeGreaterThanOrEqual(1);
    const ar = r.byCollective.find((c) => c.collective === 'all_reduce')!;
    expect(ar.bestGBs!).toBeGreaterThan(370);
    expect(ar.worstGBs!).toBeLessThan(80);
    expect(ar.targetGBs).toBe(360);
  });

  it('exports the report as CSV and refuses a negative from', async () => {
    const r = await app.inject('/api/reports/bandwidth.csv');
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, row] = r.body.split('\r\n');
    expect(header).toBe('collective,runs,passed,pass_rate,best_GBs,median_GBs,worst_GBs,target_GBs');
    expect(row).toMatch(/^all_reduce,\d+,\d+,0\.\d{3},/);
    expect((await app.inject('/api/reports/bandwidth?from=-1')).statusCode).toBe(400);
  });

  it('has no runs in a window before any import', async () => {
    expect((await app.inject('/api/reports/bandwidth?from=0&to=1000')).json()).toMatchObject({
      runs: 0,
      passRate: 0,
      byCollective: [],
    });
  });
});
