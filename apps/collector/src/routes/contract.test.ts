import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_REPLIES, type ApiRoute, TEXT_REPLIES } from '@ibwatch/fabric/api-schemas';
import { buildApp } from '../app.ts';
import { checkReplies } from '../reply-check.ts';
import { auth, ERROR_PORT, ncclFixture, seedFabric, testContext } from '../test-support.ts';

/**
 * Routes without a reply schema, each with the reason: the only list the contract test reads.
 * Everything else, JSON or text, declares its 2xx reply (packages/fabric/src/api/routes.ts).
 */
const EXCLUDED: { url: RegExp; reason: string }[] = [
  { url: /^\/api\/docs(\/|$)/, reason: 'the OpenAPI document and Swagger UI (@fastify/swagger-ui) describe the API' },
  {
    url: /^\/(?!api\/|metrics$)/,
    reason: 'the web UI: files of apps/web/dist served by @fastify/static (HTML, JS, CSS, images)',
  },
];
const excluded = (url: string) => EXCLUDED.some((e) => e.url.test(url));

describe('the API contract: every route declares its reply', () => {
  const ctx = testContext();
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let runId = 0;
  beforeAll(async () => {
    runId = (await seedFabric(ctx)).goodRun;
    app = await buildApp({
      config: ctx.config,
      db: ctx.db,
      scans: ctx.scans,
      names: ctx.names,
      onRoute: (r) => routes.push(r),
    });
  });
  afterAll(async () => {
    await app.close();
    ctx.cleanup();
  });

  const walked = () =>
    routes.flatMap((r) => [r.method].flat().map((m) => ({ key: `${m} ${r.url}`, method: m, url: r.url, route: r })));

  it('has a 2xx reply schema on every route not excluded, the one of the contract', () => {
    const own = walked().filter((r) => r.method !== 'HEAD' && !excluded(r.url));
    expect(own.length).toBeGreaterThanOrEqual(Object.keys(API_REPLIES).length);
    const missing: string[] = [];
    for (const r of own) {
      const response = (r.route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      const twoXx = response?.['2xx'] as { content?: Record<string, unknown> } | undefined;
      if (!twoXx) {
        missing.push(r.key);
        continue;
      }
      if (r.key in TEXT_REPLIES) {
        // A text reply names its content type; fast-json-stringify never sees it.
        expect(Object.keys(twoXx.content ?? {}), r.key).toEqual([TEXT_REPLIES[r.key as keyof typeof TEXT_REPLIES]]);
      } else {
        // The very schema the web client's types come from.
        expect(twoXx, r.key).toBe(API_REPLIES[r.key as ApiRoute]);
      }
    }
    expect(missing, 'routes without a 2xx reply schema').toEqual([]);
    // Every route of the contract exists.
    const keys = new Set(own.map((r) => r.key));
    for (const k of [...Object.keys(API_REPLIES), ...Object.keys(TEXT_REPLIES)]) expect(keys.has(k), k).toBe(true);
  });

  it('publishes a 2xx reply schema for every operation in /api/docs/json', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ op: `${method.toUpperCase()} ${path}`, op2: op })),
    );
    expect(ops.length).toBeGreaterThanOrEqual(Object.keys(API_REPLIES).length);
    const without = ops
      .filter(({ op2 }) => {
        const two = Object.entries(op2.responses ?? {}).find(([code]) => /^2(\d\d|XX)$/i.test(code))?.[1] as
          | { content?: Record<string, { schema?: unknown }> }
          | undefined;
        return !Object.values(two?.content ?? {}).some((c) => c.schema);
      })
      .map(({ op }) => op);
    expect(without).toEqual([]);
  });

  /** One request per route, on the seeded fabric: each reply checked strictly against its schema. */
  const requests = (): { method: 'GET' | 'POST'; url: string; payload?: object; status: number[] }[] => {
    const guid = ERROR_PORT.nodeGuid;
    const port = ERROR_PORT.portNum;
    return [
      { method: 'GET', url: '/api/health', status: [200] },
      { method: 'GET', url: '/api/ready', status: [200] },
      { method: 'GET', url: '/api/whoami', status: [200] },
      { method: 'GET', url: '/api/scans', status: [200] },
      { method: 'GET', url: '/api/scans/1', status: [200] },
      { method: 'GET', url: '/api/summary', status: [200] },
      { method: 'GET', url: '/api/topology', status: [200] },
      { method: 'GET', url: '/api/topology/frame', status: [200] },
      { method: 'GET', url: '/api/topology/frame?group=name', status: [200] },
      { method: 'GET', url: '/api/ports?limit=1000', status: [200] },
      { method: 'GET', url: '/api/ports?state=Down', status: [200] },
      { method: 'GET', url: `/api/ports/${guid}/${port}`, status: [200] },
      { method: 'GET', url: `/api/ports/${guid}/${port}/counters?range=1h`, status: [200] },
      { method: 'GET', url: `/api/ports/${guid}/${port}/counters?range=30d`, status: [200] },
      { method: 'GET', url: '/api/findings?state=active', status: [200] },
      { method: 'GET', url: '/api/findings/1', status: [200] },
      { method: 'POST', url: '/api/findings/1/ack', payload: { note: 'on it' }, status: [200] },
      { method: 'POST', url: '/api/findings/2/resolve', payload: {}, status: [200] },
      { method: 'GET', url: '/api/worklist', status: [200] },
      { method: 'GET', url: '/api/worklist.csv', status: [200] },
      { method: 'GET', url: '/api/sms', status: [200] },
      { method: 'GET', url: '/api/sms/log?limit=10', status: [200] },
      { method: 'POST', url: '/api/sms/relearn', status: [200] },
      { method: 'GET', url: '/api/nccl/runs', status: [200] },
      { method: 'GET', url: `/api/nccl/runs/${runId}`, status: [200] },
      {
        method: 'POST',
        url: '/api/nccl-runs',
        payload: { text: ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt'), labels: { nodes: 2 } },
        status: [201],
      },
      { method: 'POST', url: '/api/scans', payload: { kind: 'pm' }, status: [200, 201] },
      { method: 'GET', url: '/api/reports/bandwidth?from=0', status: [200] },
      { method: 'GET', url: '/api/reports/bandwidth.csv?from=0', status: [200] },
      { method: 'GET', url: '/api/peers', status: [200] },
      { method: 'GET', url: '/api/firmware', status: [200] },
      { method: 'GET', url: '/api/fleet', status: [200] },
      { method: 'GET', url: '/api/notifications', status: [200] },
      { method: 'GET', url: '/api/traffic/hot?hours=24', status: [200] },
      { method: 'GET', url: '/api/watch', status: [200] },
      { method: 'GET', url: '/api/baseline/validation', status: [200] },
      { method: 'GET', url: '/api/baseline/validation.csv', status: [200] },
      { method: 'GET', url: `/api/ports/${guid}/${port}/traffic?range=24h`, status: [200] },
      { method: 'GET', url: '/metrics', status: [200] },
    ];
  };

  it('answers every route on a seeded fabric with a reply its schema describes completely', async () => {
    for (const r of requests()) {
      const res = await app.inject({ method: r.method, url: r.url, payload: r.payload, headers: auth });
      // A reply with a field its schema lacks fails here (500: see reply-check.ts).
      expect(r.status, `${r.method} ${r.url}: ${res.body.slice(0, 300)}`).toContain(res.statusCode);
    }
    const own = walked().filter((r) => r.method !== 'HEAD' && !excluded(r.url));
    const key = (k: string) => k.replace(/\/\d+(?=\/|$)/g, '/:id').replace(/\/0x[0-9a-f]+\/:id/, '/:guid/:port');
    const asked = new Set(requests().map((r) => key(`${r.method} ${r.url.split('?')[0]}`)));
    // Every registered route was asked once: a new route needs a request here.
    for (const r of own) expect(asked.has(r.key), `no request for ${r.key}`).toBe(true);
  });
});

describe('the strict reply check', () => {
  const toy = async (reply: () => unknown, prebuilt = false) => {
    const app = Fastify();
    const violations: string[] = [];
    checkReplies(app, (m) => violations.push(m));
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } };
    app.get('/x', { schema: { response: { '2xx': schema } } }, async (_req, res) =>
      prebuilt ? res.type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(reply()))) : reply(),
    );
    const res = await app.inject({ method: 'GET', url: '/x' });
    await app.close();
    return { status: res.statusCode, body: res.body, violations };
  };

  it('passes a reply its schema describes', async () => {
    expect(await toy(() => ({ a: 1 }))).toEqual({ status: 200, body: '{"a":1}', violations: [] });
  });

  it('fails a field the schema lacks, which the serializer would have dropped', async () => {
    const r = await toy(() => ({ a: 1, added: 'x' }));
    expect(r.status).toBe(500);
    expect(r.violations.join()).toMatch(/GET \/x.*must NOT have additional properties/);
  });

  it('fails a value of the wrong type, which the serializer would have coerced', async () => {
    const r = await toy(() => ({ a: 1.5 }));
    expect(r.status).toBe(500);
    expect(r.violations.join()).toMatch(/must be integer/);
  });

  it('checks replies sent pre-serialised (the cached ones) as well', async () => {
    const r = await toy(() => ({ a: 1, added: 'x' }), true);
    expect(r.status).toBe(500);
    expect(r.violations).toHaveLength(1);
  });
});
