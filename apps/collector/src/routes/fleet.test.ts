import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { FabricSummary, FleetReply } from '@ibwatch/fabric';
import { appOf, auth, seedFabric, testContext, TOKEN } from '../test-support.ts';

// Two collectors in one process: "plane-2" (the seeded sample fabric, reads need a token)
// listening on a port, and "plane-1" (an empty database) serving the fleet with plane-2 and a
// port nothing listens on as its peers.
const peerCtx = testContext({ IBWATCH_READS_NEED_TOKEN: 'true' });
let peer: FastifyInstance;
let peerUrl = '';
let fleetCtx: ReturnType<typeof testContext>;
let app: FastifyInstance;
let deadUrl = '';

beforeAll(async () => {
  await seedFabric(peerCtx);
  peer = await appOf(peerCtx);
  peerUrl = await peer.listen({ host: '127.0.0.1', port: 0 });
  // A port that was just listening and is closed now: connections are refused.
  const deadCtx = testContext();
  const dead = await appOf(deadCtx);
  deadUrl = await dead.listen({ host: '127.0.0.1', port: 0 });
  await dead.close();
  deadCtx.cleanup();
  fleetCtx = testContext({
    IBWATCH_FABRIC_NAME: 'plane-1',
    IBWATCH_PEERS: `plane-2=${peerUrl},plane-3=${deadUrl}`,
    IBWATCH_PEER_TOKENS: `plane-2=${TOKEN}`,
    IBWATCH_READS_NEED_TOKEN: 'true',
  });
  app = await appOf(fleetCtx);
});

afterAll(async () => {
  await app.close();
  await peer.close();
  fleetCtx.cleanup();
  peerCtx.cleanup();
});

describe('GET /api/fleet', () => {
  it('needs the read token when reads need one', async () => {
    expect((await app.inject('/api/fleet')).statusCode).toBe(401);
  });

  it('has a tile per fabric: this one from its database, the peer as it said, the dead one UNREACHABLE', async () => {
    const r = await app.inject({ url: '/api/fleet', headers: auth });
    expect(r.statusCode).toBe(200);
    const fleet = r.json<FleetReply>();
    const peerSummary = (await peer.inject({ url: '/api/summary', headers: auth })).json<FabricSummary>();
    expect(fleet.fabrics.map((f) => [f.name, f.self, f.url, f.word])).toEqual([
      ['plane-1', true, null, 'STALE'], // an empty database: no topology yet
      ['plane-2', false, peerUrl, peerSummary.fabricStatus.word],
      ['plane-3', false, deadUrl, 'UNREACHABLE'],
    ]);
    const p2 = fleet.fabrics[1]!;
    expect(p2.summary?.brokenNow.map((b) => b.key)).toEqual(peerSummary.brokenNow.slice(0, 5).map((b) => b.key));
    expect(p2.summary?.sm.masterName).toBe(peerSummary.sm.masterName);
    expect(p2.version).toBe('0.1.0');
    expect(fleet.fabrics[2]).toMatchObject({
      reasons: ['connection refused', 'no answer since this collector started'],
    });
    expect(fleet.word).toBe('UNREACHABLE');
    expect(fleet.reasons[0]).toBe('plane-3: UNREACHABLE - connection refused');
  });

  it('never serves a peer token: /api/peers lists names and URLs only', async () => {
    const body = (await app.inject({ url: '/api/peers', headers: auth })).body;
    expect(body).not.toContain(TOKEN);
    expect(JSON.parse(body).peers).toEqual([
      { name: 'plane-2', url: peerUrl },
      { name: 'plane-3', url: deadUrl },
    ]);
  });
});
