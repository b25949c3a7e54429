import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareLinkEnds,
  topologyObjects,
  type TopologyObjects,
  type TopologyReply,
  type WorklistEntry,
} from '@ibwatch/fabric';
import { NameBook } from '../names.ts';
import { appOf, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let plain: FastifyInstance;
let entries: WorklistEntry[];
let topo: TopologyObjects;
beforeAll(async () => {
  await seedFabric(ctx);
  plain = await appOf(ctx);
  entries = (await plain.inject('/api/worklist')).json<WorklistEntry[]>();
  topo = topologyObjects((await plain.inject('/api/topology')).json<TopologyReply>());
});
afterAll(async () => {
  await plain.close();
  ctx.cleanup();
});

describe('worklist ends and walking order', () => {
  it('names the switch end, the lower one of the tree, end A of every entry', () => {
    expect(entries.length).toBeGreaterThan(1);
    const node = new Map(topo.nodes.map((n) => [n.guid, n]));
    const facts = (e: { guid: string; port: number }) => ({
      ...e,
      type: node.get(e.guid)?.type,
      tier: node.get(e.guid)?.tier,
    });
    for (const e of entries) {
      expect(e.b).not.toBeNull();
      expect(compareLinkEnds(facts(e.a), facts(e.b!)), `${e.linkKey}: ${e.a.name} before ${e.b!.name}`).toBeLessThan(0);
    }
  });

  it('sorts by end A’s rack, then U, keeping the urgency as the rank, in the API and the CSV', async () => {
    // Racks and units that reverse the urgency order: the last-ranked entry is in the first rack.
    const n = entries.length;
    const names = NameBook.fromMap(
      entries.map((e, i) => [e.a.guid, { name: e.a.name, rack: `R${n - i}`, u: 40 - i }] as const),
    );
    const app = await appOf(ctx, names);
    try {
      const walk = (await app.inject('/api/worklist?sort=rack')).json<WorklistEntry[]>();
      expect(walk.map((e) => e.a.rack)).toEqual(entries.map((_, i) => `R${i + 1}`));
      expect(walk.map((e) => e.rank)).toEqual(entries.map((_, i) => n - i));
      expect(walk[0]!.a.u).toBe(40 - (n - 1));
      const csv = (await app.inject('/api/worklist.csv?sort=rack')).body.slice(1).trimEnd().split('\r\n');
      expect(csv.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(walk.map((e) => e.rank));
      const ranked = (await app.inject('/api/worklist')).json<WorklistEntry[]>();
      expect(ranked.map((e) => e.rank)).toEqual(entries.map((_, i) => i + 1));
    } finally {
      await app.close();
    }
  });
});
