import { describe, expect, it } from 'vitest';
import { generateFatTree } from '@ibwatch/fabric';
import { fatTreeReply, indexOf, layoutOf, tinyFabric } from '@ibwatch/fabric/topology-view/fixtures';
import { pickAt, segmentDistance } from './hit.ts';
import { centerOn, fitView, focusOnSegment, ky, toScreen, toWorld, zoomAt } from './viewport.ts';
import { edgeAt, edgeIndexByLinkId, hostRails, searchTopology } from '@ibwatch/fabric/topology-view';

describe('viewport', () => {
  it('fits the layout and round-trips world ↔ screen', () => {
    const v = fitView({ width: 1000, height: 300 }, 800, 600);
    expect(v.k).toBeCloseTo((800 - 94) / 1000);
    expect(ky(v)).toBeGreaterThanOrEqual(v.k);
    const [sx, sy] = toScreen(v, 123, 45);
    const [wx, wy] = toWorld(v, sx, sy);
    expect(wx).toBeCloseTo(123);
    expect(wy).toBeCloseTo(45);
  });
  it('zooms about the cursor: the world point under it stays put', () => {
    const v = fitView({ width: 1000, height: 300 }, 800, 600);
    const before = toWorld(v, 400, 200);
    const z = zoomAt(v, 2, 400, 200, 0.01);
    expect(z.k).toBeCloseTo(v.k * 2);
    const after = toWorld(z, 400, 200);
    expect(after[0]).toBeCloseTo(before[0]);
    expect(after[1]).toBeCloseTo(before[1]);
  });
  it('clamps zoom and centres on a point', () => {
    const v = fitView({ width: 1000, height: 300 }, 800, 600);
    expect(zoomAt(v, 1e-6, 0, 0, v.k / 2).k).toBeCloseTo(v.k / 2);
    const c = centerOn(v, 500, 100, 800, 600, 2);
    expect(toScreen(c, 500, 100)).toEqual([400, 300]);
  });
});

describe('pickAt()', () => {
  const reply = tinyFabric();
  const l = layoutOf(reply);
  const v = fitView(l, 1200, 600);

  it('finds a node under its centre', () => {
    const i = l.nodes.findIndex((n) => n.tier === 'spine');
    const [sx, sy] = toScreen(v, l.nodes[i].x, l.nodes[i].y);
    expect(pickAt(l, v, sx, sy)).toEqual({ type: 'node', index: i });
  });

  it('finds an edge near its midpoint and nothing in empty space', () => {
    const e = l.edges.link.findIndex((x) => x >= 0);
    const a = l.nodes[l.edges.a[e]];
    const b = l.nodes[l.edges.b[e]];
    const [ax, ay] = toScreen(v, a.x, a.y);
    const [bx, by] = toScreen(v, b.x, b.y);
    const hit = pickAt(l, v, (ax + bx) / 2 + 2, (ay + by) / 2);
    expect(hit?.type).toBe('edge');
    expect(segmentDistance((ax + bx) / 2, (ay + by) / 2, ax, ay, bx, by)).toBeCloseTo(0);
    expect(pickAt(l, v, 5, 595)).toBeNull();
  });
});

describe('search and host rails', () => {
  const fabric = tinyFabric();
  const idx = indexOf(fabric);
  it('finds switches by name, HCAs by GUID and hosts by name', () => {
    expect(searchTopology(idx, 'spine-01')[0]).toMatchObject({ name: 'spine-01', what: 'switch' });
    const hca = fabric.nodes.find((n) => n.tier === 'hca')!;
    expect(searchTopology(idx, hca.guid.toUpperCase().replace('0X', ''))[0].guid).toBe(hca.guid);
    // The colon form of vendor dumps is the same GUID, an exact hit (normalizeGuid).
    const colons = hca.guid.slice(2).match(/../g)!.join(':');
    expect(searchTopology(idx, colons)[0]).toMatchObject({ guid: hca.guid, name: hca.name });
    expect(searchTopology(idx, 'dgx-0001')[0]).toMatchObject({ what: 'host', host: 'dgx-0001' });
    expect(searchTopology(idx, '  ')).toEqual([]);
  });
  it("highlights a host's HCAs, their leaves and the leaves' uplinks", () => {
    const h = hostRails(idx, 'dgx-0001');
    const hcas = idx.hcasOfHost.get('dgx-0001')!;
    expect(hcas).toHaveLength(2); // tinyFabric's hosts have 2 GPUs, one HCA each
    for (const g of hcas) expect(h.nodes.has(g)).toBe(true);
    const tiers = new Set([...h.nodes].map((g) => idx.node(g)!.tier));
    expect(tiers).toEqual(new Set(['hca', 'leaf', 'spine']));
    const linkTiers = new Set([...h.links].map((id) => idx.link(idx.linkIndexOf(id)!).tier));
    expect(linkTiers).toEqual(new Set(['hca-leaf', 'leaf-spine']));
    expect(hostRails(idx, 'nope').nodes.size).toBe(0);
  });
});

describe('focusing a link', () => {
  it('keeps every tier on screen when a leaf-HCA link is picked at the fitted scale', () => {
    // The e2e lab's fabric (e2e/global-setup.ts): the generator's 256-GPU 3-tier tree.
    const reply = fatTreeReply(generateFatTree({ gpus: 256, tiers: 3 }));
    const l = layoutOf(reply);
    const [w, h] = [870, 600];
    const v = fitView(l, w, h);
    const link = reply.links.find((x) => x.tier === 'hca-leaf')!;
    const e = edgeAt(l.edges, edgeIndexByLinkId(l).get(link.id)!);
    const [a, b] = [l.nodes[e.a]!, l.nodes[e.b]!];
    const f = focusOnSegment(v, [a.x, a.y], [b.x, b.y], w, h);
    for (const t of l.tiers) {
      const [, y] = toScreen(f, 0, t.y);
      expect(y, t.tier).toBeGreaterThanOrEqual(0);
      expect(y, t.tier).toBeLessThanOrEqual(h);
    }
    // Centring the link's middle instead (what the page did) pushes the top tier off screen.
    const centred = centerOn(v, (a.x + b.x) / 2, (a.y + b.y) / 2, w, h);
    expect(toScreen(centred, 0, l.tiers[0]!.y)[1]).toBeLessThan(0);
    // Horizontally the link is centred.
    expect((toScreen(f, a.x, a.y)[0] + toScreen(f, b.x, b.y)[0]) / 2).toBeCloseTo(w / 2);
  });
  it('scrolls just enough to show both ends when zoomed in', () => {
    const v = { k: 2, kyMin: 2, tx: 0, ty: -900 };
    const f = focusOnSegment(v, [100, 100], [120, 300], 800, 600, 20);
    expect(toScreen(f, 100, 100)[1]).toBeGreaterThanOrEqual(20);
    expect(toScreen(f, 120, 300)[1]).toBeLessThanOrEqual(580);
  });
});
