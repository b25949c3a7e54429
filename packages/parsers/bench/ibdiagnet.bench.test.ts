import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunDir } from '../src/ibdiagnet/fixtures.test-helper.ts';
import { benchIbdiagnet } from './ibdiagnet.bench.ts';
import { generateIbdiagnetDir } from './generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ibd-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generateIbdiagnetDir()', () => {
  it('writes a directory the parser reads back with the generated counts and no warnings', async () => {
    const g = await generateIbdiagnetDir(dir, { switches: 6, hcas: 40 });
    // 2 spines + 4 leaves; 10 HCAs per leaf, leaves fill their 64 ports with uplinks while spines have room.
    const { value: s, warnings } = readRunDir(dir);
    expect(warnings).toEqual([]);
    expect(s.nodes).toHaveLength(46);
    expect(s.nodes).toHaveLength(g.nodes);
    expect(s.links).toHaveLength(g.links);
    expect(s.ports).toHaveLength(g.ports);
    expect(s.ports.filter((p) => p.state === 'Down')).toHaveLength(g.downPorts);
    expect(s.counters.rows).toBe(g.ports - g.downPorts);
    expect(s.sms).toEqual([expect.objectContaining({ state: 'MASTER', priority: 12, lid: 1 })]);
    expect(s.counterDeltas?.intervalSeconds).toBe(1);
  });

  it('benchIbdiagnet() reports size, times and the ratio to the read-and-split floor', async () => {
    const f = await benchIbdiagnet(dir, 1);
    expect(f.files).toEqual(['ibdiagnet2.db_csv', 'ibdiagnet2.log', 'ibdiagnet2.net_dump', 'ibdiagnet2.sm']);
    expect(f.bytes).toBeGreaterThan(0);
    expect(f.ratio).toBeCloseTo(f.parseMs / f.floorMs, 6);
    expect(f.counts.nodes).toBe(46);
  });
});
