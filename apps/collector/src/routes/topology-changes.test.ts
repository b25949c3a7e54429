// GET /api/topology is kept between requests (the reply cache, and the columns in
// db/topology-json.ts) until a change counter moves. Every write to what the reply shows must
// move it: each case below writes one column the reply depends on and compares the next reply
// with one built from scratch on the same database.
import { describe, expect, it } from 'vitest';
import { TOPO_VOCAB, type TopologyReply } from '@ibwatch/fabric';
import { createTopologyJson } from '../db/topology-json.ts';
import { createTopologyRepo } from '../db/topology-repo.ts';
import { setLinkTiers } from '../db/graph-queries.ts';
import { useSeededApp } from '../test-support.ts';

const fx = useSeededApp();

/** The reply served now, and the one a build from scratch gives (same generatedAt). */
async function servedAndFresh(): Promise<[TopologyReply, TopologyReply]> {
  const served = (await fx.app.inject('/api/topology')).json<TopologyReply>();
  const fresh = JSON.parse(createTopologyJson(fx.ctx.db, fx.ctx.names).json(served.generatedAt)) as TopologyReply;
  return [served, fresh];
}

describe('topology reply after a write', () => {
  it("shows a link's new tier of the same length (leaf-spine -> spine-core) with its colour unchanged", async () => {
    const first = (await fx.app.inject('/api/topology')).json<TopologyReply>();
    const leafSpine = TOPO_VOCAB.linkTier.indexOf('leaf-spine');
    const i = first.links.tier.indexOf(leafSpine);
    expect(i).toBeGreaterThanOrEqual(0);
    const id = first.links.id[i]!;
    // Through the writer the topology store uses (its health and reason are left as they are).
    setLinkTiers(fx.ctx.db, [[id, 'spine-core']]);
    const [served, fresh] = await servedAndFresh();
    expect(TOPO_VOCAB.linkTier[served.links.tier[i]!]).toBe('spine-core');
    expect(served).toEqual(fresh);
    setLinkTiers(fx.ctx.db, [[id, 'leaf-spine']]);
    const [back, freshBack] = await servedAndFresh();
    expect(back.links.tier[i]).toBe(leafSpine);
    expect(back).toEqual(freshBack);
  });

  // Nodes, ports and link tiers through their writers (they move the topology version); the
  // links' other columns by any UPDATE or DELETE (migration 0021's triggers).
  const repo = () => createTopologyRepo(fx.ctx.db);
  const first = (sql: string) => fx.ctx.db.prepare(sql).raw().get() as [string | number, string | null];
  const writes: [string, () => void][] = [
    [
      'a node tier',
      () =>
        void repo().setTiers([{ guid: first('SELECT MAX(guid) FROM nodes')[0] as string, tier: 'core', rail: null }]),
    ],
    [
      'a node rail',
      () => void repo().setTiers([{ guid: first('SELECT MIN(guid) FROM nodes')[0] as string, tier: 'leaf', rail: 7 }]),
    ],
    [
      'a link tier',
      () =>
        setLinkTiers(fx.ctx.db, [
          [first("SELECT MIN(id) FROM links WHERE present = 1 AND tier != 'other'")[0] as number, 'other'],
        ]),
    ],
    ['a link gone', () => sql('UPDATE links SET present = 0 WHERE id = (SELECT MIN(id) FROM links WHERE present = 1)')],
    ['a link back', () => sql('UPDATE links SET present = 1 WHERE id = (SELECT MIN(id) FROM links WHERE present = 0)')],
    [
      'a link colour',
      () => sql("UPDATE links SET health = 'degraded', reason = 'r1' WHERE id = (SELECT MAX(id) FROM links)"),
    ],
    ['a reason of the same length', () => sql("UPDATE links SET reason = 'r2' WHERE id = (SELECT MAX(id) FROM links)")],
    ['a link end', () => sql('UPDATE links SET b_port_id = a_port_id WHERE id = (SELECT MAX(id) FROM links)')],
    ['a link deleted', () => sql('DELETE FROM links WHERE id = (SELECT MAX(id) FROM links)')],
  ];
  const sql = (text: string) => void fx.ctx.db.prepare(text).run();
  it.each(writes)('shows %s on the next request, as a build from scratch does', async (_what, write) => {
    const [before] = await servedAndFresh();
    write();
    const [served, fresh] = await servedAndFresh();
    expect(served).toEqual(fresh);
    expect(served).not.toEqual({ ...before, generatedAt: served.generatedAt });
  });
});
