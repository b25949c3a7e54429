import { describe, expect, it } from 'vitest';
import type { Finding } from './findings.ts';
import { actionLadder, buildWorklist, MEASURE_FIRST } from './worklist.ts';
import type { FabricLink, FabricNode } from './types.ts';

const SW = '0x0000000000000001';
const H1 = '0x0000000000000002';
const H2 = '0x0000000000000003';
const nodes: FabricNode[] = [
  { guid: SW, type: 'switch', description: 'leaf-01', numPorts: 40, lid: 1 },
  { guid: H1, type: 'ca', description: 'dgx-001 mlx5_0', numPorts: 1 },
  { guid: H2, type: 'ca', description: 'dgx-002 mlx5_0', numPorts: 1 },
];
const links: FabricLink[] = [
  { a: { nodeGuid: SW, portNum: 1 }, b: { nodeGuid: H1, portNum: 1 } },
  { a: { nodeGuid: SW, portNum: 2 }, b: { nodeGuid: H2, portNum: 1 } },
];
type F = WorklistFinding;
type WorklistFinding = Pick<Finding, 'kind' | 'severity' | 'subject' | 'title' | 'short' | 'state' | 'clearedAt'>;
const onPort = (
  g: string,
  n: number,
  kind: string,
  severity: F['severity'],
  short: string,
  state: F['state'] = 'open',
): F => ({ kind, severity, subject: { kind: 'port', port: { nodeGuid: g, portNum: n } }, title: short, short, state });

describe('buildWorklist()', () => {
  it('lists a saturated SymbolErrorCounter and counts since last clear, measuring before reseating', () => {
    const w = buildWorklist({
      links,
      nodes,
      findings: [
        onPort(H1, 1, 'counter-saturated:SymbolErrorCounter', 'major', 'SymbolErrorCounter saturated'),
        onPort(H2, 1, 'errors-since-clear', 'minor', 'since last clear: SymbolErrorCounter 67 (no rate yet)'),
      ],
    });
    expect(w.map((e) => [e.severity, e.actions[0], e.actions[1]])).toEqual([
      ['major', MEASURE_FIRST, 'clean and reseat both ends'],
      ['minor', MEASURE_FIRST, 'clean and reseat both ends'],
    ]);
  });

  it('goes straight to the ladder when a rated finding is on the cable too', () => {
    const [e] = buildWorklist({
      links,
      nodes,
      findings: [
        onPort(H1, 1, 'counter-saturated:SymbolErrorCounter', 'major', 'SymbolErrorCounter saturated'),
        onPort(SW, 1, 'symbol-errors', 'major', 'symbol errors 1.2e-11 BER (340/h)'),
      ],
    });
    expect(e!.actions[0]).toBe('clean and reseat both ends');
  });

  it('merges findings of both ends into one entry per physical link', () => {
    const w = buildWorklist({
      links,
      nodes,
      findings: [
        onPort(SW, 1, 'symbol-errors', 'major', 'symbol errors 1.2e-11 BER (340/h)'),
        onPort(H1, 1, 'link-downed', 'major', 'link went down 1x'),
      ],
      ports: [{ nodeGuid: H1, portNum: 1, lid: 9 }],
      cables: [{ nodeGuid: SW, portNum: 1, vendor: 'Mellanox', serialNumber: 'MT123', lengthM: 3 }],
      lookup: (g) => (g === H1 ? { name: 'dgx-001', rack: 'R12' } : undefined),
    });
    expect(w).toHaveLength(1);
    const e = w[0]!;
    expect(e.reasons).toEqual(['symbol errors 1.2e-11 BER (340/h)', 'link went down 1x']);
    expect(e.ends).toEqual([
      {
        nodeGuid: SW,
        portNum: 1,
        name: 'leaf-01',
        nodeType: 'switch',
        lid: 1,
        cable: { vendor: 'Mellanox', serialNumber: 'MT123', lengthM: 3 },
      },
      { nodeGuid: H1, portNum: 1, name: 'dgx-001', nodeType: 'ca', lid: 9, rack: 'R12' },
    ]);
    expect(e.actions[0]).toBe('clean and reseat both ends');
    expect(e.state).toBe('open');
  });

  it('ranks critical links first', () => {
    const w = buildWorklist({
      links,
      nodes,
      findings: [
        onPort(SW, 1, 'link-error-recovery', 'minor', 'recoveries'),
        {
          kind: 'link-degraded-width',
          severity: 'critical',
          subject: { kind: 'link', a: links[1]!.b, b: links[1]!.a },
          title: 'w',
          short: 'width 4X->2X',
          state: 'open',
        },
      ],
    });
    expect(w.map((e) => e.severity)).toEqual(['critical', 'minor']);
    expect(w[0]!.ends.map((e) => e.nodeGuid)).toEqual([SW, H2]);
  });

  it('leaves non-physical findings (congestion) off the list', () => {
    expect(buildWorklist({ links, findings: [onPort(SW, 1, 'congestion', 'major', 'wait')] })).toEqual([]);
  });

  it('escalates repeat offenders up the action ladder', () => {
    const w = buildWorklist({
      links,
      findings: [onPort(SW, 2, 'symbol-errors', 'major', 's')],
      priorFixes: new Map([[`${SW}/2~${H2}/1`, 2]]),
    });
    expect(w[0]!.repeatOffender).toBe(true);
    expect(w[0]!.actions[0]).toBe('replace the cable');
    expect(w[0]!.actions.at(-1)).toMatch(/^escalate/);
    expect(actionLadder(0)).toEqual(['clean and reseat both ends', 'swap the transceiver', 'replace the cable']);
  });

  it('marks an entry fixed when all its findings are resolved and acknowledged when none is open', () => {
    const w = buildWorklist({
      links,
      findings: [
        onPort(SW, 1, 'symbol-errors', 'major', 's', 'resolved'),
        onPort(SW, 2, 'symbol-errors', 'minor', 's', 'acknowledged'),
      ],
    });
    expect(w.map((e) => e.state)).toEqual(['acknowledged', 'fixed']);
  });

  it('marks an open entry cleared when no finding of it is observed any more, below entries still broken', () => {
    const cleared = (f: F, at: string): F => ({ ...f, clearedAt: at });
    const w = buildWorklist({
      links,
      findings: [
        cleared(onPort(SW, 1, 'symbol-errors', 'critical', 'burst'), '2024-06-01T10:00:00.000Z'),
        cleared(onPort(H1, 1, 'link-downed', 'major', 'down'), '2024-06-01T10:05:00.000Z'),
        onPort(SW, 2, 'symbol-errors', 'minor', 'still', 'acknowledged'),
      ],
    });
    expect(w.map((e) => [e.state, e.severity, e.clearedAt])).toEqual([
      ['acknowledged', 'minor', undefined],
      ['open', 'critical', '2024-06-01T10:05:00.000Z'],
    ]);
  });

  it('takes its severity from the findings still observed, its reasons from every open one', () => {
    const [e] = buildWorklist({
      links,
      findings: [
        { ...onPort(SW, 1, 'symbol-errors', 'critical', 'old burst'), clearedAt: '2024-06-01T10:00:00.000Z' },
        onPort(H1, 1, 'link-error-recovery', 'minor', 'recoveries'),
      ],
    });
    expect(e).toMatchObject({ severity: 'minor', reasons: ['old burst', 'recoveries'] });
    expect(e!.clearedAt).toBeUndefined();
  });
});

describe('buildWorklist() reasons and ends', () => {
  // GUIDs as in the lab: the HCA's GUID (0xb83f...) sorts before the switch's (0xfc6a...).
  const LEAF = '0xfc6a1c0301000001';
  // A spine whose GUID sorts before the leaf's: only the tiers make the leaf end A.
  const SPINE = '0xfc6a1c0300000009';
  const HCA = '0xb83fd20300000200';
  const labNodes: FabricNode[] = [
    { guid: LEAF, type: 'switch', description: 'leaf-r0-01', numPorts: 64 },
    { guid: SPINE, type: 'switch', description: 'spine-p1-01', numPorts: 64 },
    { guid: HCA, type: 'ca', description: 'dgx-0002 mlx5_0', numPorts: 1 },
  ];
  const hostCable: FabricLink = { a: { nodeGuid: HCA, portNum: 1 }, b: { nodeGuid: LEAF, portNum: 2 } };
  const upCable: FabricLink = { a: { nodeGuid: SPINE, portNum: 1 }, b: { nodeGuid: LEAF, portNum: 33 } };
  const onLink = (l: FabricLink, kind: string, severity: F['severity'], short: string): F => ({
    kind,
    severity,
    subject: { kind: 'link', a: l.a, b: l.b },
    title: short,
    short,
    state: 'open',
  });

  it('gives one flap one reason: link-down, link-downed on both ends and link-flapping fold together', () => {
    // What one `pnpm lab fault link-down 'leaf-r0-01[2]' --flap` left on the worklist before.
    const w = buildWorklist({
      links: [hostCable],
      nodes: labNodes,
      findings: [
        onPort(HCA, 1, 'link-downed', 'major', 'link went down 1x'),
        onPort(LEAF, 2, 'link-downed', 'major', 'link went down 1x'),
        onLink(hostCable, 'link-down', 'major', 'link down (Polling)'),
        onLink(hostCable, 'link-flapping', 'minor', 'link flapped 1 time in 24 h'),
      ],
    });
    expect(w).toHaveLength(1);
    expect(w[0]!.reasons).toEqual(['link down (Polling); flapped 1 time in 24 h']);
  });

  it('keeps a flap apart from other reasons and says the count alone once the link is up again', () => {
    const w = buildWorklist({
      links: [hostCable],
      nodes: labNodes,
      findings: [
        onPort(LEAF, 2, 'symbol-errors', 'critical', 'symbol errors 5.2e-10 BER (3.8e+5/h)'),
        onPort(LEAF, 2, 'link-downed', 'major', 'link went down 2x'),
        onLink(hostCable, 'link-flapping', 'minor', 'link flapped 2 times in 24 h'),
      ],
    });
    expect(w[0]!.reasons).toEqual(['symbol errors 5.2e-10 BER (3.8e+5/h)', 'link flapped 2 times in 24 h']);
  });

  it('names the switch end A of a host cable whatever the GUIDs, and the leaf end A of an uplink', () => {
    const w = buildWorklist({
      links: [hostCable, upCable],
      nodes: labNodes,
      tiers: new Map([
        [LEAF, 'leaf'],
        [SPINE, 'spine'],
      ]),
      findings: [onPort(HCA, 1, 'symbol-errors', 'major', 's'), onPort(SPINE, 1, 'symbol-errors', 'minor', 's')],
    });
    expect(w.map((e) => e.ends.map((x) => `${x.name}/${x.portNum}`))).toEqual([
      ['leaf-r0-01/2', 'dgx-0002 mlx5_0/1'],
      ['leaf-r0-01/33', 'spine-p1-01/1'],
    ]);
  });

  it('carries the rack unit of the inventory', () => {
    const w = buildWorklist({
      links: [hostCable],
      nodes: labNodes,
      findings: [onPort(LEAF, 2, 'symbol-errors', 'major', 's')],
      lookup: (g) => (g === LEAF ? { rack: 'N01', u: 7 } : undefined),
    });
    expect(w[0]!.ends[0]).toMatchObject({ name: 'leaf-r0-01', rack: 'N01', u: 7 });
  });
});
