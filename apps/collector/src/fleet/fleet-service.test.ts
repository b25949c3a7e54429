import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSummary, type FabricStatusWord } from '@ibwatch/fabric';
import { createFleet, type FleetDeps } from './fleet-service.ts';

/** A collector-like peer whose word can be changed and which can be stopped (refusing connections). */
class FakePeer {
  word: FabricStatusWord = 'OK';
  broken = 0;
  summaryRequests = 0;
  private server: Server | null = null;
  url = '';

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/api/health') return res.end(JSON.stringify({ status: 'ok', version: '0.1.0' }));
      this.summaryRequests++;
      res.end(JSON.stringify(sampleSummary(this.word, this.broken, Date.now())));
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
}

const b = new FakePeer();
const c = new FakePeer();
beforeAll(async () => {
  await b.start();
  await c.start();
});
afterAll(async () => {
  await b.stop();
  await c.stop();
});

function fleetOf(over: Partial<FleetDeps> = {}) {
  let t = Date.UTC(2026, 11, 1, 12, 0);
  const logged: string[] = [];
  const log = {
    warn: (_o: object, m: string) => logged.push(`warn ${m}`),
    info: (_o: object, m: string) => logged.push(`info ${m}`),
  };
  const fleet = createFleet({
    fabricName: 'plane-1',
    peers: [
      { name: 'plane-3', url: c.url },
      { name: 'plane-2', url: b.url },
    ],
    peerTokens: {},
    timeoutMs: 2000,
    ourVersion: '0.1.0',
    selfSummary: (now) => sampleSummary('OK', 0, now),
    log,
    now: () => t,
    ...over,
  });
  return { fleet, logged, advance: (ms: number) => (t += ms) };
}

describe('createFleet()', () => {
  it('gives this fabric and every peer a tile, sorted by name, and the worst word', async () => {
    b.word = 'DEGRADED';
    b.broken = 2;
    const { fleet } = fleetOf();
    const r = await fleet.reply();
    expect(r.fabrics.map((f) => [f.name, f.self, f.url, f.word])).toEqual([
      ['plane-1', true, null, 'OK'],
      ['plane-2', false, b.url, 'DEGRADED'],
      ['plane-3', false, c.url, 'OK'],
    ]);
    expect(r.word).toBe('DEGRADED');
    expect(r.reasons).toEqual(['plane-2: DEGRADED - 2 cables with a problem now']);
    expect(r.fabrics[1]!.summary?.brokenNow.map((x) => x.key)).toEqual(['link-1', 'link-2']);
    b.word = 'OK';
    b.broken = 0;
  });

  it('asks each peer once per cache period, and once for callers that come together', async () => {
    const { fleet, advance } = fleetOf({ cacheMs: 5_000 });
    const before = b.summaryRequests;
    await Promise.all([fleet.reply(), fleet.reply(), fleet.reply()]);
    expect(b.summaryRequests - before).toBe(1);
    advance(4_000);
    await fleet.reply();
    expect(b.summaryRequests - before).toBe(1);
    advance(2_000);
    await fleet.reply();
    expect(b.summaryRequests - before).toBe(2);
  });

  it('shows a peer that stops answering as UNREACHABLE with what it said last, and logs the change once', async () => {
    const p = new FakePeer();
    await p.start();
    p.word = 'CRITICAL';
    p.broken = 1;
    const { fleet, advance, logged } = fleetOf({ peers: [{ name: 'plane-4', url: p.url }], cacheMs: 0 });
    const first = await fleet.reply();
    expect(first.fabrics.find((f) => f.name === 'plane-4')).toMatchObject({ word: 'CRITICAL', stale: false });
    const seenAt = first.generatedAt;
    await p.stop();
    advance(120_000);
    await fleet.reply();
    advance(10_000);
    const r = await fleet.reply();
    const tile = r.fabrics.find((f) => f.name === 'plane-4')!;
    expect(tile).toMatchObject({
      word: 'UNREACHABLE',
      reasons: ['connection refused', 'last answer 2 min ago, when it said CRITICAL'],
      lastOkAt: seenAt,
      stale: true,
    });
    expect(tile.summary?.fabricStatus.word).toBe('CRITICAL');
    expect(tile.summary?.brokenNow).toHaveLength(1);
    // What it said two minutes ago is not current: the fleet says what is known now.
    expect(r.word).toBe('UNREACHABLE');
    expect(logged).toEqual(['warn fleet: plane-4 UNREACHABLE: connection refused']);
    await p.start(Number(new URL(p.url).port));
    advance(10_000);
    expect((await fleet.reply()).fabrics.find((f) => f.name === 'plane-4')?.stale).toBe(false);
    expect(logged.at(-1)).toBe('info fleet: plane-4 answers again');
    await p.stop();
  });

  it('is UNREACHABLE for a peer that never answered, never OK', async () => {
    const p = new FakePeer();
    await p.start();
    await p.stop();
    const { fleet } = fleetOf({ peers: [{ name: 'plane-9', url: p.url }] });
    const r = await fleet.reply();
    expect(r.fabrics.find((f) => f.name === 'plane-9')).toMatchObject({
      word: 'UNREACHABLE',
      reasons: ['connection refused', 'no answer since this collector started'],
      lastOkAt: null,
      summary: null,
    });
    expect(r.word).toBe('UNREACHABLE');
  });

  it('is ERROR for its own fabric when its database cannot be read', async () => {
    const { fleet } = fleetOf({
      peers: [],
      selfSummary: () => {
        throw new Error('database is locked');
      },
    });
    const r = await fleet.reply();
    expect(r.fabrics).toEqual([
      expect.objectContaining({
        name: 'plane-1',
        word: 'ERROR',
        reasons: ['this collector could not read its own database: database is locked', expect.any(String)],
      }),
    ]);
  });

  it('sends each peer its own token', async () => {
    const seen: Record<string, string | null> = {};
    const fetchSpy: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith('/api/summary')) seen[new URL(url).port] = new Headers(init?.headers).get('authorization');
      return fetch(input, init);
    };
    const { fleet } = fleetOf({ peerTokens: { 'plane-3': 'token-of-plane-3-0123' }, fetch: fetchSpy });
    await fleet.reply();
    expect(seen).toEqual({ [new URL(c.url).port]: 'Bearer token-of-plane-3-0123', [new URL(b.url).port]: null });
  });
});
