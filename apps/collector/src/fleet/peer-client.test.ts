import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { appOf, seedFabric, testContext, TOKEN } from '../test-support.ts';
import { networkProblem, readPeer } from './peer-client.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A fake peer on 127.0.0.1: `handler` answers every request. */
async function fakePeer(handler: Handler): Promise<{ url: string; server: Server; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const health = (version = '0.1.0') => ({ status: 'ok', version, source: 'lab', uptimeS: 5 });
/** Answers /api/health with `version` and /api/summary with `summary` (status 200). */
const collectorLike =
  (summary: (res: ServerResponse) => void, version = '0.1.0'): Handler =>
  (req, res) =>
    req.url === '/api/health' ? json(res, 200, health(version)) : summary(res);

const servers: Server[] = [];
async function peer(handler: Handler) {
  const p = await fakePeer(handler);
  servers.push(p.server);
  return p;
}
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

const OPTS = { timeoutMs: 1500, ourVersion: '0.1.0' };

describe('readPeer() on a real collector', () => {
  const ctx = testContext({ IBWATCH_READS_NEED_TOKEN: 'true' });
  let app: FastifyInstance;
  let url = '';
  beforeAll(async () => {
    await seedFabric(ctx);
    app = await appOf(ctx);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    ctx.cleanup();
  });

  it('reads its summary with the read token: status word, broken-now rows, SM, version', async () => {
    const r = await readPeer(url, { ...OPTS, token: TOKEN });
    if (!r.ok) throw new Error(r.problem);
    const full = (await app.inject({ url: '/api/summary', headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(r.version).toBe('0.1.0');
    expect(r.summary.fabricStatus).toEqual(full.fabricStatus);
    expect(r.summary.brokenNowTotal).toBe(full.brokenNow.length);
    expect(r.summary.brokenNow).toEqual(full.brokenNow.slice(0, 5));
    expect(r.summary.sm.masterGuid).toBe('0xb0cf0e0300d33fc0');
    expect(r.summary.switches).toBe(9);
  });

  it('is ERROR saying a read token is needed when it has none, and that it was refused when wrong', async () => {
    expect(await readPeer(url, OPTS)).toEqual({
      ok: false,
      word: 'ERROR',
      problem: '/api/summary needs a read token (HTTP 401): set IBWATCH_PEER_TOKEN or IBWATCH_PEER_TOKENS',
    });
    expect(await readPeer(url, { ...OPTS, token: 'wrong-token-0123456789' })).toMatchObject({
      word: 'ERROR',
      problem: '/api/summary refused the read token (HTTP 401): check IBWATCH_PEER_TOKEN(S)',
    });
  });

  it('is ERROR when its version does not share this one API', async () => {
    expect(await readPeer(url, { ...OPTS, token: TOKEN, ourVersion: '0.2.0' })).toEqual({
      ok: false,
      word: 'ERROR',
      problem: 'ibwatch 0.1.0 there and 0.2.0 here do not share an API: upgrade one',
    });
  });
});

describe('readPeer() on peers that fail', () => {
  it('is UNREACHABLE when the connection is refused', async () => {
    const p = await peer(() => undefined);
    await new Promise((r) => p.server.close(r));
    expect(await readPeer(p.url, OPTS)).toEqual({ ok: false, word: 'UNREACHABLE', problem: 'connection refused' });
  });

  it('is UNREACHABLE when no answer comes within the timeout, and gives up at the timeout', async () => {
    const p = await peer(() => undefined); // accepts, never answers
    const t0 = Date.now();
    expect(await readPeer(p.url, { ...OPTS, timeoutMs: 300 })).toEqual({
      ok: false,
      word: 'UNREACHABLE',
      problem: 'no answer within 0.3 s',
    });
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('is UNREACHABLE when the body stops half-way past the timeout', async () => {
    const p = await peer(
      collectorLike((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"generatedAt":');
      }),
    );
    expect(await readPeer(p.url, { ...OPTS, timeoutMs: 300 })).toMatchObject({ word: 'UNREACHABLE' });
  });

  it.each<[string, Handler, RegExp]>([
    [
      'a web page',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>hello</html>');
      },
      /^\/api\/health answered text\/html, not JSON: is http:\/\/127\.0\.0\.1:\d+ an ibwatch collector\?$/,
    ],
    [
      'JSON that does not parse',
      collectorLike((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"generatedAt": 1,');
      }),
      /^\/api\/summary is not valid JSON \(/,
    ],
    [
      'a server error',
      collectorLike((res) => json(res, 503, { statusCode: 503, error: 'x', message: 'database busy; try again' })),
      /^\/api\/summary answered HTTP 503: database busy; try again$/,
    ],
    [
      'a redirect',
      (_req, res) => {
        res.writeHead(302, { location: 'https://sso.example/login' });
        res.end();
      },
      /^\/api\/health redirects \(HTTP 302\) to https:\/\/sso\.example\/login: put that address in IBWATCH_PEERS$/,
    ],
    [
      'a summary of another shape',
      collectorLike((res) => json(res, 200, { generatedAt: 1, fabricStatus: { word: 'GREEN', reasons: [] } })),
      /^\/api\/summary is not what ibwatch 0\.1\.0 reads: \/ must have required property 'brokenNow'$/,
    ],
    [
      'a health reply without a version',
      (_req, res) => json(res, 200, { status: 'ok' }),
      /^\/api\/health has no version: is .* an ibwatch collector\?$/,
    ],
    ['an incompatible version', collectorLike(() => undefined, '1.0.0'), /^ibwatch 1\.0\.0 there and 0\.1\.0 here/],
  ])('is ERROR, saying why, for %s', async (_what, handler, problem) => {
    const p = await peer(handler);
    const r = await readPeer(p.url, OPTS);
    expect(r).toMatchObject({ ok: false, word: 'ERROR' });
    expect(!r.ok && r.problem).toMatch(problem);
  });

  it('stops reading a body over the size limit', async () => {
    const p = await peer(
      collectorLike((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"pad":"${'x'.repeat(200_000)}"}`);
      }),
    );
    expect(await readPeer(p.url, { ...OPTS, maxBytes: 64 * 1024 })).toEqual({
      ok: false,
      word: 'ERROR',
      problem: '/api/summary answered more than 64 KiB',
    });
  });

  it('sends the token to /api/summary only, never to /api/health, and follows no redirect', async () => {
    const p = await peer(collectorLike((res) => json(res, 404, { message: 'no route' })));
    await readPeer(p.url, { ...OPTS, token: 'peer-token-0123456789' });
    const auth = Object.fromEntries(p.requests.map((r) => [r.url, r.headers.authorization ?? null]));
    expect(auth).toEqual({ '/api/health': null, '/api/summary': 'Bearer peer-token-0123456789' });
  });
});

describe('networkProblem()', () => {
  const failed = (code: string, message = code) =>
    Object.assign(new TypeError('fetch failed'), { cause: { code, message } });
  it.each([
    [failed('ENOTFOUND'), 'UNREACHABLE', 'host name not found'],
    [failed('EHOSTUNREACH'), 'UNREACHABLE', 'host unreachable'],
    [failed('ECONNRESET'), 'UNREACHABLE', 'connection reset'],
    [failed('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'ERROR', 'TLS: self-signed certificate'],
    [failed('EWHATEVER', 'odd'), 'UNREACHABLE', 'no answer (EWHATEVER: odd)'],
    [
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'UNREACHABLE',
      'no answer within 2 s',
    ],
  ])('names %o', (err, word, problem) => {
    expect(networkProblem(err, 2000)).toEqual({ word, problem });
  });
});
