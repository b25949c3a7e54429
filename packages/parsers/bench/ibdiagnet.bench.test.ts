import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunDir } from '../src/ibdiagnet/fixtures.test-helper.ts';
import { benchFabric } from './fabric.ts';
import { benchIbdiagnet } from './ibdiagnet.bench.ts';
import { writeIbdiagnetDir } from './generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ibd-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The smallest 3-tier fat-tree: one SU of 8 rails plus the management leaf, split into two pods.
const f = benchFabric(8);

describe('writeIbdiagnetDir()', () => {
  it('writes a directory the parser reads back as the fat-tree it was generated from, without warnings', async () => {
    await writeIbdiagnetDir(dir, f);
    const { value: s, warnings } = readRunDir(dir);
    expect(warnings).toEqual([]);
    expect(s.nodes).toHaveLength(f.switches.length + f.cas.length);
    expect(s.links).toHaveLength(f.topo.links.length);
    // Every switch port (cabled or DOWN in .net_dump) and port 1 of every HCA.
    expect(s.ports).toHaveLength(f.ports.length);
    expect(s.ports.filter((p) => p.state === 'Down')).toHaveLength(f.ports.length - f.connected.length);
    expect(s.counters.rows).toBe(f.connected.length);
    // PM_DELTA has a row per cabled port; the log has no `Going to sleep` line, so no interval.
    expect(s.counterDeltas?.ports.rows).toBe(f.connected.length);
    expect(s.counterDeltas?.intervalSeconds).toBeUndefined();
    // The SM runs on the first head node's HCA, LID in ibsim order (switches first).
    const head = f.topo.nodes.find((n) => n.role === 'head-hca')!;
    expect(s.sms).toEqual([expect.objectContaining({ state: 'MASTER', priority: 15, lid: f.lidOf.get(head.name) })]);
  });

  it('benchIbdiagnet() reports size, times and the ratio to the read-and-split floor', async () => {
    const b = await benchIbdiagnet(dir, 1);
    expect(b.files).toEqual(['ibdiagnet2.db_csv', 'ibdiagnet2.log', 'ibdiagnet2.net_dump', 'ibdiagnet2.sm']);
    expect(b.bytes).toBeGreaterThan(0);
    expect(b.ratio).toBeCloseTo(b.parseMs / b.floorMs, 6);
    expect(b.counts.nodes).toBe(f.topo.nodes.length);
  });
});
