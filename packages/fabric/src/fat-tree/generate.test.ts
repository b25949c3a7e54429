import { describe, it, expect } from 'vitest';
// The lab's names for the generator, so that these tests read as they did in packages/lab.
import { generateFatTree as generateTopology, planFatTree as planTopology } from './generate.ts';
import { fatTreeNodesByName as nodesByName, fatTreePortTable as portTable, type FatTree as Topology } from './model.ts';

/** Pure CPU work, but 7.6 s under load average 10 on 2 cores (vitest's default is 5 s). */
const T = 60_000;

function count(t: Topology, role: string): number {
  return t.nodes.filter((n) => n.role === role).length;
}

describe('generateFatTree()', () => {
  it.each([
    // gpus, tiers, leaves, spines, cores, links
    [16, 2, 9, 8, 0, 16 + 2 + 9 * 32],
    [256, 2, 9, 8, 0, 256 + 2 + 9 * 32],
    [1000, 2, 33, 32, 0, 125 * 8 + 2 + 33 * 32],
    [256, 3, 9, 16, 8, 256 + 2 + 9 * 32 + 16 * 32],
    [4000, 3, 129, 160, 128, 4000 + 2 + 129 * 32 + 160 * 32],
  ] as const)(
    '%i GPUs in %i tiers: %i leaves, %i spines, %i cores, %i links',
    (gpus, tiers, leaves, spines, cores, links) => {
      const t = generateTopology({ gpus, tiers });
      expect(t.shape.tiers).toBe(tiers);
      expect(count(t, 'leaf')).toBe(leaves);
      expect(count(t, 'spine')).toBe(spines);
      expect(count(t, 'core')).toBe(cores);
      expect(count(t, 'gpu-hca')).toBe(Math.ceil(gpus / 8) * 8);
      expect(count(t, 'head-hca')).toBe(2);
      expect(t.links.length).toBe(links);
    },
    T,
  );

  it(
    'picks 2 tiers while the leaves fit the spines, then 3',
    () => {
      expect(planTopology({ gpus: 1024 }).tiers).toBe(2);
      expect(planTopology({ gpus: 2000 }).tiers).toBe(3);
      expect(() => planTopology({ gpus: 4000, tiers: 2 })).toThrow(/do not fit a 2-tier/);
    },
    T,
  );

  it(
    'cables every port at most once and every link on two existing ends, within the radix',
    () => {
      for (const opts of [{ gpus: 16 }, { gpus: 256, tiers: 3 as const }, { gpus: 4000 }, { gpus: 300, radix: 40 }]) {
        const t = generateTopology(opts);
        const table = portTable(t); // throws on a double-cabled or out-of-range port
        const byName = nodesByName(t);
        for (const l of t.links) {
          expect(byName.has(l.a.node) && byName.has(l.b.node)).toBe(true);
          expect(table.get(l.b.node)?.[l.b.port]).toEqual(l.a);
        }
        for (const n of t.nodes) expect(n.numPorts).toBeLessThanOrEqual(n.type === 'switch' ? (opts.radix ?? 64) : 1);
        // every HCA is cabled, every switch reaches at least one other switch
        for (const n of t.nodes) expect(table.get(n.name)?.some(Boolean)).toBe(true);
      }
    },
    T,
  );

  it(
    'puts mlx5_N of every node on a rail-N leaf',
    () => {
      const t = generateTopology({ gpus: 1000 });
      const table = portTable(t);
      const byName = nodesByName(t);
      for (const n of t.nodes.filter((x) => x.role === 'gpu-hca')) {
        const leaf = byName.get(table.get(n.name)?.[1]?.node ?? '');
        expect(leaf?.role).toBe('leaf');
        expect(leaf?.rail).toBe(Number(n.name.split('mlx5_')[1]));
        expect(leaf?.name).toBe(`leaf-r${n.rail}-${String((n.su ?? 0) + 1).padStart(2, '0')}`);
      }
    },
    T,
  );

  it(
    'names nodes like a real cluster and attaches the head nodes',
    () => {
      const t = generateTopology({ gpus: 4000 });
      const names = new Set(t.nodes.map((n) => n.name));
      expect(names.size).toBe(t.nodes.length);
      for (const n of [
        'dgx-0001 mlx5_0',
        'dgx-0500 mlx5_7',
        'leaf-r3-07',
        'leaf-r0-16',
        'spine-p1-01',
        'core-128',
        'head-01 mlx5_0',
      ]) {
        expect(names.has(n), n).toBe(true);
      }
      expect(t.smHosts).toEqual(['head-01 mlx5_0', 'head-02 mlx5_0']);
      expect(generateTopology({ gpus: 256 }).nodes.some((n) => n.name === 'spine-08')).toBe(true);
    },
    T,
  );

  it(
    'is deterministic and gives unique canonical GUIDs; roots are the top tier',
    () => {
      const a = generateTopology({ gpus: 512, tiers: 3 });
      expect(generateTopology({ gpus: 512, tiers: 3 })).toEqual(a);
      const guids = a.nodes.flatMap((n) => (n.portGuid ? [n.guid, n.portGuid] : [n.guid]));
      expect(new Set(guids).size).toBe(guids.length);
      for (const g of guids) expect(g).toMatch(/^0x[0-9a-f]{16}$/);
      expect(a.roots).toEqual(a.nodes.filter((n) => n.role === 'core').map((n) => n.guid));
    },
    T,
  );

  it(
    'respects a configurable radix',
    () => {
      const t = generateTopology({ gpus: 320, radix: 40 });
      expect(t.shape.nodesPerSu).toBe(20);
      expect(t.nodes.filter((n) => n.type === 'switch').every((n) => n.numPorts === 40)).toBe(true);
    },
    T,
  );

  it(
    'generates 10,000 GPUs quickly',
    () => {
      // CPU time, not wall time: on a loaded 2-core CI box the wall clock measures the neighbours.
      const t0 = process.cpuUsage();
      const t = generateTopology({ gpus: 10_000 });
      const cpu = process.cpuUsage(t0);
      expect((cpu.user + cpu.system) / 1000).toBeLessThan(3000);
      expect(count(t, 'gpu-hca')).toBe(10_000);
    },
    T,
  );

  it(
    'rejects bad options',
    () => {
      expect(() => generateTopology({ gpus: 0 })).toThrow(/gpus/);
      expect(() => generateTopology({ gpus: 16, radix: 63 })).toThrow(/radix/);
    },
    T,
  );
});
