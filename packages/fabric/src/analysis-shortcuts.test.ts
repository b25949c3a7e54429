import { describe, expect, it } from 'vitest';
import { generateFatTree } from './fat-tree/generate.ts';
import { fatTreeSnapshot } from './fat-tree/snapshot.ts';
import { linkKey } from './findings.ts';
import { evaluateLinks } from './link-health.ts';
import { inferTopology, linkTiersOf, topologyAnomalies } from './topology.ts';
import type { FabricLink, FabricPort, FabricSnapshot } from './types.ts';

// The scan's shortcuts must give exactly what the full computation gives, on a fabric that changed.

/** A 3-tier tree, then the next scan of it: ends down, a link narrower, one slower, a link and a cable moved. */
function changed() {
  const t = generateFatTree({ gpus: 512, tiers: 3 });
  const before = fatTreeSnapshot(t);
  const now = fatTreeSnapshot(t);
  const at = (l: FabricLink, end: 'a' | 'b') =>
    now.ports.find((p) => p.nodeGuid === l[end].nodeGuid && p.portNum === l[end].portNum)!;
  const set = (p: FabricPort, v: Partial<FabricPort>) => Object.assign(p, v);
  set(at(now.links[3]!, 'a'), { state: 'Down', physState: 'Polling' });
  set(at(now.links[40]!, 'b'), { state: 'Down', physState: 'Disabled' });
  set(at(now.links[41]!, 'a'), { widthActive: '1X' });
  set(at(now.links[42]!, 'b'), { speedActive: 'SDR' });
  now.links.splice(100, 1);
  const moved = now.links[200]!;
  now.links[200] = { a: moved.a, b: { ...moved.b, portNum: moved.b.portNum + 60 } };
  return { before, now };
}

/** The known graph as the collector passes it: links only, or each end listed as an Active port. */
function known(s: FabricSnapshot, withPorts: boolean): FabricSnapshot {
  const ends = s.links.flatMap((l) => [l.a, l.b]);
  return {
    ...s,
    ports: withPorts ? ends.map((e) => ({ nodeGuid: e.nodeGuid, portNum: e.portNum, state: 'Active' as const })) : [],
  };
}

describe('evaluateLinks previousLinkEndsActive', () => {
  it('gives the verdicts of listing every previous link end as Active', () => {
    const { before, now } = changed();
    const expected = { width: '4X', speed: before.ports[0]!.speedActive } as const;
    expect(expected.speed).not.toBe('SDR');
    const full = evaluateLinks(now, { previous: known(before, true), expected });
    const short = evaluateLinks(now, {
      previous: known(before, false),
      previousLinkEndsActive: true,
      expected,
    });
    expect(full.filter((v) => v.kind === 'link-down')).toHaveLength(2);
    expect(full.some((v) => v.kind === 'link-degraded-width')).toBe(true);
    expect(full.some((v) => v.kind === 'link-degraded-speed')).toBe(true);
    expect(short).toEqual(full);
  });
});

describe('linkTiersOf()', () => {
  it('reads the model links directly, and looks up any other list', () => {
    const { now } = changed();
    const m = inferTopology(now);
    const viaMap = now.links.map((l) => m.linkTiers.get(linkKey(l.a, l.b)));
    expect(new Set(viaMap)).toEqual(new Set(['hca-leaf', 'leaf-spine', 'spine-core']));
    expect(linkTiersOf(m, now.links)).toEqual(viaMap);
    // Another list: a link the model never saw has no tier.
    const other = [...now.links, { a: now.links[0]!.a, b: { nodeGuid: '0xdead', portNum: 1 } }];
    expect(linkTiersOf(m, other)).toEqual([...viaMap, undefined]);
  });

  it('leaves topologyAnomalies as with the eager map', () => {
    const { before, now } = changed();
    const m = inferTopology(now);
    // A copy is not the inferred model: every tier is looked up in its (materialised) map.
    const eager = { ...m };
    const v = topologyAnomalies(m, now, { baseline: before });
    expect(v.some((x) => x.kind === 'topology-asymmetric-up')).toBe(true);
    expect(v.some((x) => x.kind === 'topology-link-moved')).toBe(true);
    expect(v).toEqual(topologyAnomalies(eager, now, { baseline: before }));
  });
});
