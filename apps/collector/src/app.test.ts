import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { appOf, auth, testContext } from './test-support.ts';
import { buildApp } from './app.ts';
import { securityHeaders } from './security-headers.ts';

describe('buildApp()', () => {
  const ctx = testContext({ IBWATCH_BODY_LIMIT_BYTES: '2048' });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appOf(ctx);
  });
  afterAll(async () => {
    await app.close();
    ctx.cleanup();
  });

  it('serves the OpenAPI document at /api/docs/json', async () => {
    const r = await app.inject('/api/docs/json');
    expect(r.statusCode).toBe(200);
    const doc = r.json<{ openapi: string; info: { title: string }; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('ibwatch collector API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/summary',
        '/api/ports',
        '/api/ports/{guid}/{port}',
        '/api/nccl-runs',
        '/api/worklist.csv',
      ]),
    );
    expect(doc.paths).not.toHaveProperty('/metrics');
  });

  it('sends the security headers', async () => {
    const r = await app.inject('/api/health');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    // Exactly the headers helmet itself makes for these options, on every reply (404s too).
    const helmets = await securityHeaders(ctx.config);
    expect(Object.keys(helmets).length).toBeGreaterThanOrEqual(10);
    for (const res of [r, await app.inject('/api/nothing-here')]) {
      for (const [name, value] of Object.entries(helmets)) expect(res.headers[name], name).toBe(value);
    }
  });

  it('answers 404 as JSON for an unknown API route', async () => {
    const r = await app.inject('/api/nothing-here');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('no route GET /api/nothing-here'),
    });
  });

  it('refuses a body over the configured limit with 413', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/nccl-runs',
      payload: { text: 'x'.repeat(4096) },
      headers: auth,
    });
    expect(r.statusCode).toBe(413);
  });

  it('refuses writes when no token is configured, naming the setting', async () => {
    const noToken = testContext({ IBWATCH_TOKEN: '' });
    const a = await appOf(noToken);
    try {
      const r = await a.inject({ method: 'POST', url: '/api/scans', payload: { kind: 'pm' }, headers: auth });
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('writes are disabled: set IBWATCH_TOKENS or IBWATCH_TOKEN');
    } finally {
      await a.close();
      noToken.cleanup();
    }
  });
});

describe('buildApp() with IBWATCH_READS_NEED_TOKEN=true', () => {
  const ctx = testContext({ IBWATCH_READS_NEED_TOKEN: 'true' });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appOf(ctx);
  });
  afterAll(async () => {
    await app.close();
    ctx.cleanup();
  });

  it('needs the token for reads of the API and /metrics', async () => {
    expect((await app.inject('/api/summary')).statusCode).toBe(401);
    expect((await app.inject('/metrics')).statusCode).toBe(401);
    expect((await app.inject('/api/summary?x=1')).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/summary', headers: auth })).statusCode).toBe(200);
  });

  it('keeps /api/health open for load balancers', async () => {
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/api/health?probe=1')).statusCode).toBe(200);
  });
});

describe('a 5xx', () => {
  const ctx = testContext();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appOf(ctx);
  });
  afterAll(async () => {
    await app.close().catch(() => undefined);
    ctx.cleanup();
  });

  it('never leaks a stack trace or SQL, only a request id', async () => {
    // A broken database under a running app: every query throws inside better-sqlite3.
    ctx.db.close();
    for (const url of ['/api/summary', '/api/ports', '/api/findings', '/metrics']) {
      const r = await app.inject(url);
      expect(r.statusCode, url).toBe(500);
      const body = r.json<{ message: string }>();
      expect(body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: expect.stringMatching(/^internal error \(request [a-z0-9]+\)$/),
      });
      expect(r.body).not.toMatch(/\n\s+at |SELECT|sqlite|database/i);
    }
  });
});

describe('request logging', () => {
  // What the collector logs per request at a log level, and the process warnings building it raised.
  async function logged(level: string): Promise<{ lines: { msg: string }[]; warnings: string[] }> {
    const ctx = testContext({ IBWATCH_LOG_LEVEL: level });
    const lines: { msg: string }[] = [];
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push(`${w.code ?? w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const stream = { write: (l: string) => void lines.push(JSON.parse(l) as { msg: string }) };
    const app = await buildApp({ ...ctx, logger: { level, stream } });
    try {
      await app.inject('/api/health');
      // process.emitWarning delivers on the next tick.
      await new Promise((r) => setImmediate(r));
      return { lines, warnings };
    } finally {
      process.off('warning', onWarning);
      await app.close();
      ctx.cleanup();
    }
  }

  it('is off at info, without the deprecated Fastify option (no FSTDEP023 warning)', async () => {
    const { lines, warnings } = await logged('info');
    expect(lines.map((l) => l.msg)).not.toContain('incoming request');
    expect(warnings).toEqual([]);
  });

  it('is on at debug', async () => {
    const { lines } = await logged('debug');
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });
});
