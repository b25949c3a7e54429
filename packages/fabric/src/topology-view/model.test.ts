import { describe, expect, it } from 'vitest';
import { compareLinkEnds, generateFatTree, topologyColumns, type TopoLink, type TopologyObjects } from '../index.ts';
import { fatTreeReply, indexOf } from './fixtures.ts';
import { indexTopology, linkRateText, parseSelection, serializeSelection } from './model.ts';

describe('selection in the URL', () => {
  it.each([
    ['n:0x0002c90300a1b2c3', { type: 'node', guid: '0x0002c90300a1b2c3' }],
    ['g:0x0002c90300a1b2c3', { type: 'group', leaf: '0x0002c90300a1b2c3' }],
    ['l:42', { type: 'link', id: 42 }],
  ] as const)('round-trips %s', (s, sel) => {
    expect(parseSelection(s)).toEqual(sel);
    expect(serializeSelection(parseSelection(s))).toBe(s);
  });
  it('ignores garbage', () => {
    expect(parseSelection('l:abc')).toBeNull();
    expect(parseSelection('x:1')).toBeNull();
    expect(parseSelection(undefined)).toBeNull();
    expect(serializeSelection(null)).toBeNull();
  });
});

describe('indexTopology(): link ends as every view orders them', () => {
  const hca = { guid: '0xb83fd20300000200', name: 'dgx-0002 mlx5_0', port: 1, lid: 6, rack: 'R01' };
  const leaf = { guid: '0xfc6a1c0301000001', name: 'leaf-r0-01', port: 2, lid: 2, rack: 'N01' };
  const spine = { guid: '0xfc6a1c0300000009', name: 'spine-p1-01', port: 1, lid: 3, rack: 'S01' };
  const node = (e: typeof hca, type: 'ca' | 'switch', tier: 'hca' | 'leaf' | 'spine') => ({
    guid: e.guid,
    name: e.name,
    type,
    tier,
    rail: null,
    rack: e.rack,
    lid: e.lid,
    host: null,
  });
  const link = (id: number, a: typeof hca, b: typeof hca, tier: TopoLink['tier']): TopoLink => ({
    id,
    a,
    b,
    tier,
    health: 'ok',
    widthActive: '4X',
    speedActive: 'HDR',
    reason: null,
  });
  it('names the switch end A, and the leaf end A of an uplink, as the worklist does', () => {
    const reply: TopologyObjects = {
      generatedAt: 0,
      nodes: [node(hca, 'ca', 'hca'), node(leaf, 'switch', 'leaf'), node(spine, 'switch', 'spine')],
      links: [link(1, hca, leaf, 'hca-leaf'), link(2, spine, { ...leaf, port: 33 }, 'leaf-spine')],
    };
    const idx = indexTopology(topologyColumns(reply));
    const o = [idx.link(0), idx.link(1)];
    expect(o.map((l) => `${l.a.name} → ${l.b.name}`)).toEqual([
      'leaf-r0-01 → dgx-0002 mlx5_0',
      'leaf-r0-01 → spine-p1-01',
    ]);
    expect(o[0]).toMatchObject({ id: 1, widthActive: '4X', tier: 'hca-leaf' });
    expect(o[0].a).toEqual(leaf);
    expect(o[1].b).toEqual(spine);
    // The index's own end columns agree with the objects it gives.
    expect([idx.reply.nodes.name[idx.endA[1]], idx.portA[1], idx.reply.nodes.name[idx.endB[1]], idx.portB[1]]).toEqual([
      'leaf-r0-01',
      33,
      'spine-p1-01',
      1,
    ]);
    expect(Array.from(idx.swapped)).toEqual([1, 1]);
  });
});

describe('indexTopology() on a generated fabric', () => {
  it('orients every link as compareLinkEnds does, and finds each by id', () => {
    const t = fatTreeReply(generateFatTree({ gpus: 256, tiers: 3 }));
    const idx = indexOf(t);
    const node = new Map(t.nodes.map((n) => [n.guid, n]));
    const facts = (e: TopoLink['a']) => ({ ...e, type: node.get(e.guid)!.type, tier: node.get(e.guid)!.tier });
    let swapped = 0;
    for (let i = 0; i < idx.linkCount; i++) {
      const l = idx.link(i);
      expect(compareLinkEnds(facts(l.a), facts(l.b))).toBeLessThanOrEqual(0);
      expect(idx.linkIndexOf(l.id)).toBe(i);
      swapped += idx.swapped[i];
    }
    expect(swapped).toBeGreaterThan(0);
    expect(idx.linkIndexOf(-5)).toBeUndefined();
  });
});

describe('linkRateText()', () => {
  it('says a down link is not trained instead of "Active: ? ?"', () => {
    expect(linkRateText({ health: 'down', widthActive: null, speedActive: null })).toBe(
      'Down: not trained (no active width or speed)',
    );
    // The API's width is one end's as last stored: an unreachable HCA still says 4X HDR.
    expect(linkRateText({ health: 'down', widthActive: '4X', speedActive: 'HDR' })).toMatch(/^Down/);
    expect(linkRateText({ health: 'degraded', widthActive: '2X', speedActive: 'HDR' })).toBe('Active: 2X HDR');
    expect(linkRateText({ health: 'ok', widthActive: null, speedActive: null })).toBe('Active width and speed unknown');
  });
});

describe('indexTopology(): the GUID and host maps, built on first use', () => {
  it('hold what the reply says, each reply its own, and stay the same maps once built', () => {
    const objects = fatTreeReply(generateFatTree({ gpus: 256, tiers: 3 }));
    // Changed input: one host renamed, one HCA moved to another host.
    const hcas = objects.nodes.filter((n) => n.host);
    const renamed: TopologyObjects = {
      ...objects,
      nodes: objects.nodes.map((n) =>
        n.guid === hcas[0].guid
          ? { ...n, host: 'renamed-host' }
          : n.guid === hcas[9].guid
            ? { ...n, host: hcas[20].host }
            : n,
      ),
    };
    for (const t of [objects, renamed]) {
      const idx = indexTopology(topologyColumns(t));
      const cols = idx.reply.nodes;
      // Read through node()/linksOf() first on one index, through the maps first on the other.
      if (t === renamed) expect(idx.node(cols.guid[3])?.guid).toBe(cols.guid[3]);
      const byGuid = idx.nodeIndex;
      expect(byGuid.size).toBe(t.nodes.length);
      for (const n of t.nodes) expect(cols.guid[byGuid.get(n.guid)!]).toBe(n.guid);
      const hosts = new Map<string, string[]>();
      for (let i = 0; i < cols.guid.length; i++) {
        const h = cols.host[i];
        if (h) hosts.set(h, [...(hosts.get(h) ?? []), cols.guid[i]]);
      }
      expect(new Map(idx.hcasOfHost)).toEqual(hosts);
      for (const n of t.nodes.filter((x) => x.host)) expect(idx.hcasOfHost.get(n.host!)).toContain(n.guid);
      expect(idx.nodeIndex).toBe(byGuid);
      expect(idx.linksOf(t.nodes[0].guid).length).toBeGreaterThan(0);
    }
    const a = indexTopology(topologyColumns(objects));
    const b = indexTopology(topologyColumns(renamed));
    expect(b.hcasOfHost.get('renamed-host')).toEqual([hcas[0].guid]);
    expect(a.hcasOfHost.has('renamed-host')).toBe(false);
    expect(b.hcasOfHost.get(hcas[20].host!)).toContain(hcas[9].guid);
    expect(a.hcasOfHost.get(hcas[20].host!)).not.toContain(hcas[9].guid);
  });
});
