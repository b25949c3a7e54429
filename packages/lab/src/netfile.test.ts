import { describe, it, expect } from 'vitest';
import { parseNodeNameMap } from '@ibwatch/parsers';
import { generateTopology } from './generator.ts';
import { ibsimLimits, writeNetfile, writeRootsFile } from './netfile.ts';
import { writeNodeNameMap } from './node-name-map.ts';
import type { Topology } from './topology.ts';

/** Pure CPU work, but 7.6 s under load average 10 on 2 cores (vitest's default is 5 s). */
const T = 60_000;

function count(t: Topology, role: string): number {
  return t.nodes.filter((n) => n.role === role).length;
}

describe('writeRootsFile()', () => {
  it(
    'lists the top-tier switches, one per line',
    () => {
      const a = generateTopology({ gpus: 512, tiers: 3 });
      expect(writeRootsFile(a).trim().split('\n')).toHaveLength(a.shape.cores);
    },
    T,
  );
});

describe('writeNetfile()', () => {
  it(
    'writes 10,000 GPUs quickly, within the limits it gives ibsim',
    () => {
      // CPU time, not wall time: on a loaded 2-core CI box the wall clock measures the neighbours.
      const t0 = process.cpuUsage();
      const t = generateTopology({ gpus: 10_000 });
      const net = writeNetfile(t);
      const cpu = process.cpuUsage(t0);
      expect((cpu.user + cpu.system) / 1000).toBeLessThan(3000);
      expect(count(t, 'gpu-hca')).toBe(10_000);
      expect(net.length).toBeGreaterThan(1_000_000);
      expect(ibsimLimits(t).ports).toBeGreaterThanOrEqual(t.nodes.reduce((s, n) => s + n.numPorts + 1, 0));
    },
    T,
  );

  it(
    'writes both ends of each cable with the rate and explicit GUIDs',
    () => {
      const text = writeNetfile(generateTopology({ gpus: 16 }));
      expect(text).toContain(
        'switchguid=0xfc6a1c0301000001\nSwitch 64 "leaf-r0-01" # "leaf-r0-01" enhanced port 0 lid 0 lmc 0',
      );
      expect(text).toContain('Ca 1 "dgx-0001 mlx5_0" # "dgx-0001 mlx5_0"\n[1] "leaf-r0-01"[1] # lid 0 4xHDR');
      expect(text).toMatch(/Switch 64 "leaf-r0-01"[^]*?\n\[1\] "dgx-0001 mlx5_0"\[1\] # lid 0 4xHDR/);
    },
    T,
  );

  it(
    'writes a per-link override on both ends and refuses NDR (ibsim 0.10 cannot parse it)',
    () => {
      const t = generateTopology({ gpus: 16 });
      t.links[0] = { ...t.links[0], width: '2X' };
      const text = writeNetfile(t);
      expect(text.match(/ 2xHDR/g)).toHaveLength(2);
      expect(() => writeNetfile(generateTopology({ gpus: 16, speed: 'NDR' }))).toThrow(/cannot simulate NDR/);
    },
    T,
  );
});

describe('node-name-map', () => {
  it(
    'round-trips names and rack locations',
    () => {
      const t = generateTopology({ gpus: 64 });
      const text = writeNodeNameMap(t);
      expect(text).toContain('0xb83fd20300000106 "dgx-0001 mlx5_3" # rack=R01 u=2');
      const parsed = parseNodeNameMap(text).value;
      expect(parsed).toHaveLength(t.nodes.length);
      expect(parsed.find((e) => e.name === 'leaf-r3-01')).toMatchObject({ rack: 'N01', u: 4 });
    },
    T,
  );
});
