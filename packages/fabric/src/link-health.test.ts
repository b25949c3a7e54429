import { describe, expect, it } from 'vitest';
import { computeDeltas } from './counters.ts';
import { CounterTableBuilder } from './counter-table.ts';
import { evaluateFlaps, evaluateLinks, flapEventsFromSweep } from './link-health.ts';
import { PortIndex } from './port-index.ts';
import type { FabricPort, FabricSnapshot, LinkWidth } from './types.ts';

const SW = '0x0000000000000001';
const CA = '0x0000000000000002';
const ALL_W: LinkWidth[] = ['1X', '2X', '4X', '8X', '12X'];
function snap(a: Partial<FabricPort>, b: Partial<FabricPort>): FabricSnapshot {
  const base = {
    state: 'Active' as const,
    physState: 'LinkUp' as const,
    widthActive: '4X' as const,
    speedActive: 'HDR' as const,
    widthSupported: ALL_W,
    widthEnabled: ['1X', '4X'] as LinkWidth[],
    speedSupported: ['SDR', 'EDR', 'HDR'] as FabricPort['speedSupported'],
  };
  return {
    source: 'diags',
    nodes: [
      { guid: SW, type: 'switch', description: 'leaf-01', numPorts: 40, lid: 1 },
      { guid: CA, type: 'ca', description: 'dgx-node-001 mlx5_0', numPorts: 1 },
    ],
    ports: [
      { nodeGuid: SW, portNum: 3, ...base, ...a },
      { nodeGuid: CA, portNum: 1, lid: 9, ...base, ...b },
    ],
    links: [{ a: { nodeGuid: SW, portNum: 3 }, b: { nodeGuid: CA, portNum: 1 } }],
    counters: new CounterTableBuilder().build(),
    sms: [],
    cables: [],
    toolFindings: [],
    meta: {},
  };
}

describe('evaluateLinks()', () => {
  it('does not flag an ibsim link that "could be 12X" (supported 1x..12x, enabled up to 4X)', () => {
    expect(evaluateLinks(snap({}, {}), { expected: { width: '4X', speed: 'HDR' } })).toEqual([]);
  });

  it('flags a 2X link on a 4X-expected fabric and names both ends', () => {
    // ibportstate ... width 17 (1x|2x) on both ends, as the lab does it
    const s = snap(
      { widthActive: '2X', widthEnabled: ['1X', '2X'] },
      { widthActive: '2X', widthEnabled: ['1X', '2X'] },
    );
    const [v] = evaluateLinks(s, { expected: { width: '4X', speed: 'HDR' } });
    expect(v).toMatchObject({ kind: 'link-degraded-width', severity: 'major', short: 'width 4X->2X' });
    expect(v!.title).toContain('leaf-01 port 3');
    expect(v!.title).toContain('dgx-node-001 mlx5_0 port 1');
    expect(v!.subject).toEqual({ kind: 'link', a: { nodeGuid: SW, portNum: 3 }, b: { nodeGuid: CA, portNum: 1 } });
  });

  it('flags width below what both ends enable even without an expected rate', () => {
    const [v] = evaluateLinks(snap({ widthActive: '1X' }, { widthActive: '1X' }));
    expect(v).toMatchObject({ kind: 'link-degraded-width', evidence: { target: '4X', enabledCommonMax: '4X' } });
  });

  it('flags speed below what both ends support (EDR on an HDR-capable link)', () => {
    const [v] = evaluateLinks(snap({ speedActive: 'EDR', speedEnabled: ['EDR'] }, { speedActive: 'EDR' }));
    expect(v).toMatchObject({ kind: 'link-degraded-speed', severity: 'major', short: 'speed 200G->100G' });
  });

  it('flags speed below the expected NDR with the rate in plain words', () => {
    const [v] = evaluateLinks(snap({}, {}), { expected: { speed: 'NDR' } });
    expect(v).toMatchObject({ kind: 'link-degraded-speed', short: 'speed 400G->200G' });
  });

  it('flags a port that was Active and is now Polling', () => {
    const prev = snap({}, {});
    const cur = snap({ state: 'Down', physState: 'Polling' }, {});
    const [v] = evaluateLinks(cur, { previous: prev });
    expect(v).toMatchObject({
      kind: 'link-down',
      severity: 'major',
      evidence: { physState: 'Polling', previousState: 'Active' },
    });
  });

  it('does not call a port that was already down "went down"', () => {
    const prev = snap({ state: 'Down', physState: 'Polling' }, {});
    expect(evaluateLinks(snap({ state: 'Down', physState: 'Polling' }, {}), { previous: prev })).toEqual([]);
  });
});

describe('evaluateLinks() with the ports already indexed', () => {
  it('gives the verdicts it gives when it indexes them itself', () => {
    const cases: [FabricSnapshot, Parameters<typeof evaluateLinks>[1]][] = [
      [snap({ widthActive: '2X', widthEnabled: ['1X', '2X'] }, {}), { expected: { width: '4X', speed: 'HDR' } }],
      [snap({ speedActive: 'EDR' }, { speedActive: 'EDR' }), {}],
      [snap({}, { state: 'Down', physState: 'Polling' }), { previous: snap({}, {}) }],
      [snap({}, {}), {}],
    ];
    let verdicts = 0;
    for (const [s, opts] of cases) {
      const currentPorts = new PortIndex<FabricPort>();
      for (const p of s.ports) currentPorts.set(p.nodeGuid, p.portNum, p);
      const want = evaluateLinks(s, opts);
      expect(evaluateLinks(s, { ...opts, currentPorts })).toEqual(want);
      verdicts += want.length;
    }
    expect(verdicts).toBe(3);
  });

  it('reads the index it is given, not the list', () => {
    const s = snap({}, {});
    const currentPorts = new PortIndex<FabricPort>();
    for (const p of snap({ widthActive: '1X' }, { widthActive: '1X' }).ports)
      currentPorts.set(p.nodeGuid, p.portNum, p);
    expect(evaluateLinks(s, { currentPorts }).map((v) => v.kind)).toEqual(['link-degraded-width']);
  });
});

describe('flaps', () => {
  it('turns a LinkDownedCounter increment into a flap event, and a lifetime value into none', () => {
    const first = computeDeltas(undefined, [{ nodeGuid: CA, portNum: 1, counters: { LinkDownedCounter: 4n } }], 60);
    expect(flapEventsFromSweep(first.ports, undefined, [], 't0')).toEqual([]);
    const d = computeDeltas(
      [{ nodeGuid: CA, portNum: 1, counters: { LinkDownedCounter: 4n } }],
      [{ nodeGuid: CA, portNum: 1, counters: { LinkDownedCounter: 6n } }],
      60,
    );
    expect(flapEventsFromSweep(d.ports, undefined, [], 't1')).toEqual([
      { at: 't1', port: { nodeGuid: CA, portNum: 1 }, count: 2, source: 'LinkDownedCounter' },
    ]);
  });

  it('counts an Active -> Down transition as a flap when the counter did not move', () => {
    const prev = snap({}, {}).ports;
    const cur = snap({ state: 'Down', physState: 'Polling' }, {}).ports;
    expect(flapEventsFromSweep([], prev, cur, 't')).toHaveLength(1);
  });

  it('reports "link flapped 3 times in 24 h" once per link, not per end', () => {
    const s = snap({}, {});
    const now = '2025-04-02T00:00:00Z';
    const ev = [
      {
        at: '2025-04-01T10:00:00Z',
        port: { nodeGuid: SW, portNum: 3 },
        count: 2,
        source: 'LinkDownedCounter' as const,
      },
      {
        at: '2025-04-01T11:00:00Z',
        port: { nodeGuid: SW, portNum: 3 },
        count: 1,
        source: 'LinkDownedCounter' as const,
      },
      {
        at: '2025-04-01T11:00:00Z',
        port: { nodeGuid: CA, portNum: 1 },
        count: 3,
        source: 'LinkDownedCounter' as const,
      },
      {
        at: '2025-03-30T11:00:00Z',
        port: { nodeGuid: CA, portNum: 1 },
        count: 50,
        source: 'LinkDownedCounter' as const,
      },
    ];
    const v = evaluateFlaps(ev, { now, links: s.links });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      kind: 'link-flapping',
      severity: 'major',
      short: 'link flapped 3 times in 24 h',
      subject: { kind: 'link' },
    });
  });
});
