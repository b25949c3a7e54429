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
    // Racks and units that reverse the urgency order: the last-ranked end A is in the first rack.
    // Several cables can share end A's node (a leaf with several saturated HCAs under it).
    const n = entries.length;
    const nodes = [...new Set(entries.map((e) => e.a.guid))];
    const m = nodes.length;
    const names = NameBook.fromMap(
      nodes.map(
        (g, j) => [g, { name: entries.find((e) => e.a.guid === g)!.a.name, rack: `R${m - j}`, u: 40 - j }] as const,
      ),
    );
    const at = (e: WorklistEntry) => nodes.indexOf(e.a.guid);
    const expected = [...entries].sort((x, y) => at(y) - at(x) || x.a.port - y.a.port);
    const app = await appOf(ctx, names);
    try {
      const walk = (await app.inject('/api/worklist?sort=rack')).json<WorklistEntry[]>();
      expect(walk.map((e) => e.a.rack)).toEqual(expected.map((e) => `R${m - at(e)}`));
      expect(walk.map((e) => e.rank)).toEqual(expected.map((e) => e.rank));
      expect(walk[0]!.a.u).toBe(40 - (m - 1));
      const csv = (await app.inject('/api/worklist.csv?sort=rack')).body.slice(1).trimEnd().split('\r\n');
      expect(csv.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(walk.map((e) => e.rank));
      const ranked = (await app.inject('/api/worklist')).json<WorklistEntry[]>();
      expect(ranked.map((e) => e.rank)).toEqual(entries.map((_, i) => i + 1));
      expect(n).toBeGreaterThan(m); // the shared-node case is exercised
    } finally {
      await app.close();
    }
  });
});
