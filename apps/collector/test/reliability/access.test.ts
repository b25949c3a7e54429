// Access and hardening: bearer token on writes (and optionally reads), body limit, schema
// validation, no internals in 5xx, helmet headers, write rate limits, argv-only tool runs,
// config validation of extra tool arguments, and inert storage of hostile names and labels.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { tokenMatches } from '../../src/auth.ts';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createContext, type Context } from '../../src/context.ts';
import { createToolRunner } from '../../src/sources/tool-runner.ts';
import { cannedLab, cleanupTemp, PARSER_FIXTURES, tempDir, testConfig, TOKEN } from './support.ts';

const AUTH = { authorization: `Bearer ${TOKEN}` };
const GOOD_NCCL = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
const FORMULA = `=cmd|' /C calc'!A0`;
const SCRIPT = '<script>alert(document.cookie)</script>';

async function appWith(env: Record<string, string> = {}, onCtx?: (ctx: Context) => void): Promise<FastifyInstance> {
  const runner = cannedLab();
  // A node description that a spreadsheet would run as a command (CSV formula injection).
  const topo = runner.outputs.get('ibnetdiscover')!.stdout!.replaceAll('"dgx-0005 mlx5_0"', `"${FORMULA}"`);
  runner.set('ibnetdiscover', { stdout: topo });
  const ctx = createContext(testConfig(tempDir('access'), { IBWATCH_SOURCE: 'diags', ...env }), { runner });
  onCtx?.(ctx);
  return buildApp(ctx);
}

/** Write routes as the API documents them (OpenAPI from the route schemas). */
function writeRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const paths = (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m !== 'get' && m !== 'head')
      .map((m) => ({ method: m.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1') })),
  );
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await appWith();
  await app.ready();
  for (const kind of ['topology', 'pm'] as const)
    expect((await app.inject({ method: 'POST', url: '/api/scans', headers: AUTH, payload: { kind } })).statusCode).toBe(
      201,
    );
});
afterAll(async () => {
  await app.close();
  cleanupTemp();
});

describe('bearer token', () => {
  it('tokenMatches: exact token only, in constant time over hashed values (no length leak, no throw)', () => {
    expect(tokenMatches(TOKEN, `Bearer ${TOKEN}`)).toBe(true);
    expect(tokenMatches(TOKEN, `bearer   ${TOKEN}  `)).toBe(true);
    for (const h of [
      undefined,
      '',
      'Bearer',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN.slice(0, 1)}`,
      `Bearer ${'x'.repeat(10_000)}`,
      `Bearer ${TOKEN} extra`,
    ]) {
      expect(tokenMatches(TOKEN, h), String(h).slice(0, 40)).toBe(false);
    }
    expect(tokenMatches(null, `Bearer ${TOKEN}`)).toBe(false);
    expect(readFileSync(join(import.meta.dirname, '../../src/tokens.ts'), 'utf8')).toMatch(/timingSafeEqual\(/);
  });

  it('every write route answers 401 without a token or with a wrong one', async () => {
    const routes = writeRoutes(app);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/scans',
        'POST /api/nccl-runs',
        'POST /api/findings/1/ack',
        'POST /api/findings/1/resolve',
      ]),
    );
    for (const r of routes) {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }]) {
        const res = await app.inject({ method: r.method as 'POST', url: r.url, headers, payload: {} });
        expect(res.statusCode, `${r.method} ${r.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });

  it('reads can be made to need the token; health (for probes) and whoami stay open', async () => {
    const locked = await appWith({ IBWATCH_READS_NEED_TOKEN: 'true' });
    await locked.ready();
    const paths = Object.keys((locked.swagger() as { paths: Record<string, unknown> }).paths).filter(
      (p) => !p.includes('{') && !['/api/health', '/api/ready', '/api/whoami'].includes(p),
    );
    expect(paths.length).toBeGreaterThan(8);
    for (const p of [...paths, '/metrics']) expect((await locked.inject(p)).statusCode, p).toBe(401);
    expect((await locked.inject({ url: '/api/summary', headers: AUTH })).statusCode).toBe(200);
    expect((await locked.inject('/api/health')).statusCode).toBe(200);
    // whoami tells a valid token its name and anything else nothing.
    expect((await locked.inject('/api/whoami')).json()).toEqual({ name: null });
    expect((await locked.inject({ url: '/api/whoami', headers: AUTH })).json()).toEqual({ name: 'admin' });
    await locked.close();
  });
});

describe('request validation', () => {
  it('request bodies over IBWATCH_BODY_LIMIT_BYTES get 413 without reaching the handler', async () => {
    const small = await appWith({ IBWATCH_BODY_LIMIT_BYTES: String(1 << 20) });
    const body = JSON.stringify({ text: 'x'.repeat((1 << 20) - 10) });
    expect(Buffer.byteLength(body)).toBe((1 << 20) + 1);
    const res = await small.inject({
      method: 'POST',
      url: '/api/nccl-runs',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413 });
    const scans = (await small.inject('/api/scans?kind=import-nccl')).json() as unknown[];
    expect(scans).toEqual([]);
    await small.close();
  });

  it('bad types, unknown fields and missing fields get 400 naming the field', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/api/scans', { kind: 'everything' }, /kind/],
      ['POST', '/api/scans', { kind: 'pm', now: true }, /unknown field "now"/],
      ['POST', '/api/scans', {}, /kind/],
      ['POST', '/api/nccl-runs', { text: { lines: 1 } }, /text/],
      ['POST', '/api/nccl-runs', { text: '' }, /text/],
      [
        'POST',
        '/api/nccl-runs',
        { text: GOOD_NCCL, labels: { cluster: 'a', shell: '$(id)' } },
        /body\/labels has an unknown field "shell"/,
      ],
      ['POST', '/api/nccl-runs', { text: GOOD_NCCL, name: '../../etc/passwd' }, /name/],
      ['POST', '/api/nccl-runs', { text: GOOD_NCCL, startedAt: 'yesterday' }, /startedAt/],
      [
        'POST',
        '/api/nccl-runs',
        { text: GOOD_NCCL, startedAt: 1.7e12, finishedAt: 1.6e12 },
        /startedAt .* is after finishedAt/,
      ],
      ['POST', '/api/nccl-runs', { text: GOOD_NCCL, finishedAt: 1e17 }, /finishedAt .* is in the future/],
      ['POST', '/api/findings/1/ack', { by: 'ann' }, /"by" is no longer accepted/],
      ['POST', '/api/findings/1/ack', { note: { text: 'x' } }, /note/],
      ['POST', '/api/findings/1/resolve', { note: 'x', why: 'y' }, /unknown field "why"/],
      ['POST', '/api/findings/abc/resolve', {}, /id/],
      ['GET', '/api/ports?limit=abc', undefined, /limit/],
      ['GET', '/api/ports?limit=5000', undefined, /limit/],
      ['GET', '/api/ports/not-a-guid/1', undefined, /guid/],
      ['GET', '/api/ports/0x1/999', undefined, /port/],
      ['GET', '/api/findings?state=everything', undefined, /state/],
      ['GET', '/api/findings?bogus=1', undefined, /querystring has an unknown field "bogus"/],
      ['GET', '/api/scans?kind=x', undefined, /kind/],
      ['GET', '/api/nccl/runs?from=-1', undefined, /from/],
      ['GET', '/api/reports/bandwidth?to=soon', undefined, /to/],
      ['GET', '/api/sms?events=0', undefined, /events/],
      ['GET', '/api/worklist?severity=doom', undefined, /severity/],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: AUTH,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)?.slice(0, 80)}`).toBe(400);
      expect(res.json().message, url).toMatch(field);
    }
  });

  it('a 500 shows a request id, never a stack, SQL or path', async () => {
    let ctx: Context | null = null;
    const broken = await appWith({}, (c) => (ctx = c));
    expect((await broken.inject('/api/health')).statusCode).toBe(200);
    // Pull the database away under the running app: every query now throws inside a handler.
    ctx!.db.close();
    const res = await broken.inject('/api/summary');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: expect.stringMatching(/^internal error \(request \w+\)$/),
    });
    expect(res.body).not.toMatch(/at \w+ \(|\.ts:\d+|SELECT|database connection|\/work\//);
  });
});

describe('transport hardening', () => {
  it('security headers (helmet) on the UI path and on the API', async () => {
    for (const url of ['/', '/topology', '/api/health', '/api/summary', '/api/nothing-here']) {
      const h = (await app.inject(url)).headers;
      expect(h['content-security-policy'], url).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(h['x-frame-options'], url).toBe('DENY');
      expect(h['x-content-type-options'], url).toBe('nosniff');
      expect(h['strict-transport-security'], url).toMatch(/max-age=\d+/);
      expect(h['referrer-policy'], url).toBe('no-referrer');
      expect(h['x-powered-by'], url).toBeUndefined();
    }
  });

  it('write routes are rate limited (429 past the limit), reads are not', async () => {
    const limited = await appWith();
    const codes: number[] = [];
    for (let i = 0; i < 32; i++)
      codes.push(
        (await limited.inject({ method: 'POST', url: '/api/scans', headers: AUTH, payload: { kind: 'ibdiagnet' } }))
          .statusCode,
      );
    expect(codes.slice(0, 30).every((c) => c === 200)).toBe(true);
    expect(codes.slice(30)).toEqual([429, 429]);
    for (let i = 0; i < 40; i++) expect((await limited.inject('/api/health')).statusCode).toBe(200);
    await limited.close();
  });
});

describe('tool runs and configuration', () => {
  it('tools run from an argument array, never a shell: metacharacters stay literal', async () => {
    const dir = tempDir('argv');
    const marker = join(dir, 'pwned');
    const r = await createToolRunner({ timeoutMs: 5000, maxOutputBytes: 1 << 20 }).run('/bin/echo', [
      `$(touch ${marker})`,
      ';',
      'touch',
      marker,
      '`id`',
      '|',
      'sh',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(`$(touch ${marker}) ; touch ${marker} \`id\` | sh`);
    expect(existsSync(marker)).toBe(false);
  });

  it('extra ibdiagnet arguments with shell metacharacters are refused at start-up, all listed at once', () => {
    let err: unknown;
    try {
      loadConfig({ IBWATCH_IBDIAGNET_ARGS: '--pc ;rm -rf / $(id) `id` a|b --sc' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const bad of [';rm', '$(id)', '`id`', 'a|b']) expect(problems).toContain(JSON.stringify(bad));
    expect(loadConfig({ IBWATCH_IBDIAGNET_ARGS: '--pc --pm_pause_time 10 --skip=dup_guids' }).ibdiagnetArgs).toEqual([
      '--pc',
      '--pm_pause_time',
      '10',
      '--skip=dup_guids',
    ]);
  });
});

describe('hostile names are stored as data and stay inert', () => {
  it('a node description that is a spreadsheet formula is escaped in the worklist CSV, verbatim in JSON', async () => {
    const json = (await app.inject('/api/worklist')).json() as { a: { name: string }; b: { name: string } | null }[];
    expect(json.some((e) => e.a.name === FORMULA || e.b?.name === FORMULA)).toBe(true);
    const csv = await app.inject('/api/worklist.csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain(`'${FORMULA}`);
    // No cell of the export starts with a formula character.
    for (const line of csv.body.trim().split('\r\n').slice(1)) {
      for (const cell of line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .map((c) => c.replace(/,$/, '').replace(/^"|"$/g, ''))) {
        expect(cell, line).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('an nccl label with HTML is stored and returned verbatim as JSON (the UI escapes it when rendering)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/nccl-runs',
      headers: AUTH,
      payload: { text: GOOD_NCCL, name: 'x.txt', labels: { cluster: SCRIPT, runBy: `"; DROP TABLE nccl_runs; --` } },
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { id: number }).id;
    const detail = await app.inject(`/api/nccl/runs/${id}`);
    expect(detail.headers['content-type']).toMatch(/^application\/json/);
    expect(detail.json().run.labels).toMatchObject({ cluster: SCRIPT, runBy: `"; DROP TABLE nccl_runs; --` });
    expect((await app.inject('/api/nccl/runs')).json().length).toBeGreaterThan(0);
  });
});
