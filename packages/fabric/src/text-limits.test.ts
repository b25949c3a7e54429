import { describe, expect, it } from 'vitest';
import { cutText, limitText, TEXT_LIMITS } from './text-limits.ts';
import type { FabricNode } from './types.ts';

const node = (guid: string, description: string): FabricNode => ({ guid, type: 'ca', description, numPorts: 1 });

describe('limitText()', () => {
  it('cuts over-long node descriptions to 128 characters and says how many, naming the first', () => {
    const nodes = [node('0x01', 'x'.repeat(50 << 20)), node('0x02', 'dgx-0042 mlx5_3'), node('0x03', 'y'.repeat(129))];
    const warnings = limitText({ nodes });
    expect(nodes.map((n) => n.description.length)).toEqual([128, 15, 128]);
    expect(warnings).toEqual([
      '2 node descriptions longer than 128 characters cut to 128 (first: node 0x01, 52428800 characters)',
    ]);
  });

  it('leaves text within the limits alone and says nothing', () => {
    const t = {
      nodes: [node('0x01', 'z'.repeat(TEXT_LIMITS.nodeDescription))],
      ports: [{ nodeGuid: '0x01', portNum: 1, label: '1/17/2' }],
      cables: [{ nodeGuid: '0x01', portNum: 1, vendor: 'Mellanox', serialNumber: 'MT2233VS04321' }],
    };
    const before = JSON.stringify(t);
    expect(limitText(t)).toEqual([]);
    expect(JSON.stringify(t)).toBe(before);
  });

  it('cuts labels, cable fields, SM descriptions and tool messages, one warning per kind', () => {
    const t = {
      ports: [{ nodeGuid: '0x01', portNum: 3, label: 'L'.repeat(33) }],
      cables: [{ nodeGuid: '0x01', portNum: 3, vendor: 'V'.repeat(65), partNumber: 'P'.repeat(65) }],
      sms: [{ guid: '0x02', priority: 1, state: 'MASTER' as const, nodeDescription: 'S'.repeat(200) }],
      toolFindings: [{ severity: 'warning' as const, text: 'w'.repeat(5000), code: 'NODE_X' }],
    };
    expect(limitText(t)).toEqual([
      '1 node descriptions longer than 128 characters cut to 128 (first: SM 0x02, 200 characters)',
      '1 port labels longer than 32 characters cut to 32 (first: port 0x01/3, 33 characters)',
      '2 cable fields longer than 64 characters cut to 64 (first: cable at 0x01/3, 65 characters)',
      '1 tool messages longer than 1024 characters cut to 1024 (first: NODE_X, 5000 characters)',
    ]);
    expect([t.ports[0]!.label!.length, t.cables[0]!.vendor!.length, t.toolFindings[0]!.text.length]).toEqual([
      32, 64, 1024,
    ]);
  });

  it('never splits a surrogate pair', () => {
    expect(cutText('ab😀cd', 3)).toBe('ab');
    expect(cutText('ab😀cd', 4)).toBe('ab😀');
  });
});
