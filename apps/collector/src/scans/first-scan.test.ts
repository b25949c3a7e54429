import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fatTreeSnapshot,
  generateFatTree,
  linkTierOf,
  type FabricPort,
  type FabricSnapshot,
  type FabricTier,
} from '@ibwatch/fabric';
import { runPipeline } from './pipeline.ts';
import { storeTopology } from './topology-store.ts';
import { CounterBaseline, type TopologyView } from './counter-baseline.ts';
import { testContext } from '../test-support.ts';

type Ctx = ReturnType<typeof testContext>;

async function scan({ db, config, names }: Ctx, s: FabricSnapshot, baseline?: CounterBaseline) {
  const row = await runPipeline(
    db,
    'topology',
    'cli',
    async () => ({ data: s, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeTopology(db, config, names, id, at, c.data, baseline),
  );
  expect(row.status).toBe('ok');
  baseline?.commit();
  return row.summary as Record<string, number>;
}

/** A first scan that is not a clean tree: ends down, no rate, a narrower link, an uncabled port, a renamed switch. */
function odd(t: ReturnType<typeof generateFatTree>): FabricSnapshot {
  const s = fatTreeSnapshot(t);
  const end = (i: number, e: 'a' | 'b'): FabricPort =>
    s.ports.find((p) => p.nodeGuid === s.links[i]![e].nodeGuid && p.portNum === s.links[i]![e].portNum)!;
  Object.assign(end(3, 'a'), { state: 'Down', physState: 'Polling', widthActive: undefined, speedActive: undefined });
  Object.assign(end(20, 'b'), { widthActive: '1X' });
  Object.assign(end(21, 'a'), { speedActive: 'SDR' });
  const sw = s.nodes.find((n) => n.type === 'switch' && n.guid === s.links[20]!.b.nodeGuid)!;
  sw.description = `${sw.description} (renamed)`;
  s.ports.push({ nodeGuid: sw.guid, portNum: 99, state: 'Down', physState: 'Disabled' });
  s.links.splice(7, 1);
  return s;
}

/** Every stored port's entry in `v`, and the node descriptions, next to what a full read gives. */
function sameView(ctx: Ctx, v: TopologyView) {
  const full = new CounterBaseline(ctx.db).topology();
  const ports = ctx.db.prepare('SELECT node_guid AS g, port_num AS n FROM ports ORDER BY id').all() as {
    g: string;
    n: number;
  }[];
  expect(ports.length).toBeGreaterThan(100);
  expect(ports.map((p) => v.byPort.get(p.g, p.n))).toEqual(ports.map((p) => full.byPort.get(p.g, p.n)));
  expect(ports.every((p) => v.byPort.get(p.g, p.n)?.id !== undefined)).toBe(true);
  expect(v.byPort.get(ports[0]!.g, 98)).toBeUndefined();
  expect(v.descs).toEqual(full.descs);
}

/** Stored tier of every link next to the one its ends' stored node tiers give (the tier pass' rule). */
function linkTiers({ db }: Ctx) {
  const rows = db
    .prepare(
      `SELECT l.tier, na.tier AS ta, nb.tier AS tb FROM links l JOIN ports pa ON pa.id = l.a_port_id
       JOIN ports pb ON pb.id = l.b_port_id LEFT JOIN nodes na ON na.guid = pa.node_guid
       LEFT JOIN nodes nb ON nb.guid = pb.node_guid ORDER BY l.id`,
    )
    .all() as { tier: string | null; ta: FabricTier | null; tb: FabricTier | null }[];
  return {
    stored: rows.map((r) => r.tier),
    fromNodes: rows.map((r) => linkTierOf(r.ta ?? undefined, r.tb ?? undefined)),
  };
}

describe('a fabric first scan: what ingest wrote is handed on, not read back', () => {
  let ctx: Ctx;
  afterEach(() => ctx.cleanup());

  it('gives the PM sweep the port view a full read gives, first scan only', async () => {
    ctx = testContext({ IBWATCH_EXPECTED_RATE: '4X HDR' });
    const t = generateFatTree({ gpus: 128, tiers: 3 });
    const baseline = new CounterBaseline(ctx.db);
    const seed = vi.spyOn(baseline, 'seedTopology');
    await scan(ctx, odd(t), baseline);
    expect(seed).toHaveBeenCalledTimes(1);
    const seeded = baseline.topology();
    sameView(ctx, seeded);
    expect(seeded.descs.size).toBe(fatTreeSnapshot(t).nodes.length);
    // The seeded view is the one kept (no read back): a write behind ingest's back does not show.
    ctx.db.prepare("UPDATE ports SET width_active = 'behind'").run();
    expect(baseline.topology()).toBe(seeded);
    ctx.db.prepare('UPDATE ports SET width_active = NULL').run();

    // Stored ports before: no seed, the view is read again (ingest bumped the topology version).
    await scan(ctx, fatTreeSnapshot(t), baseline);
    expect(seed).toHaveBeenCalledTimes(1);
    const next = baseline.topology();
    expect(next).not.toBe(seeded);
    sameView(ctx, next);
  });

  it('reads the view back when a first scan lists a port twice', async () => {
    ctx = testContext({ IBWATCH_EXPECTED_RATE: '4X HDR' });
    const s = odd(generateFatTree({ gpus: 64, tiers: 2 }));
    s.ports.push({ ...s.ports[5]!, state: 'Down' });
    const baseline = new CounterBaseline(ctx.db);
    const seed = vi.spyOn(baseline, 'seedTopology');
    await scan(ctx, s, baseline);
    expect(seed).not.toHaveBeenCalled();
    sameView(ctx, baseline.topology());
  });

  it('inserts new links with the tier of their ends, as the tier pass would set it', async () => {
    ctx = testContext({ IBWATCH_EXPECTED_RATE: '4X HDR' });
    const t = generateFatTree({ gpus: 128, tiers: 3 });
    await scan(ctx, odd(t));
    const first = linkTiers(ctx);
    expect(first.stored).toEqual(first.fromNodes);
    expect(new Set(first.stored)).toEqual(new Set(['hca-leaf', 'leaf-spine', 'spine-core']));
    // Links stored before: the one the odd scan lacked comes as new and gets its tier.
    const summary = await scan(ctx, fatTreeSnapshot(t));
    expect(summary['newLinks']).toBe(1);
    const next = linkTiers(ctx);
    expect(next.stored.length).toBe(first.stored.length + 1);
    expect(next.stored.at(-1)).not.toBeNull();
    expect(next.stored).toEqual(next.fromNodes);
  });
});
