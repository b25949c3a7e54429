import { describe, expect, it } from 'vitest';
import { parseIbnetdiscover } from './ibnetdiscover.ts';
import { parsePerfquery, perfqueryPortCounters } from './perfquery.ts';
import { fixture } from './fixture.test-helper.ts';

describe('parseIbnetdiscover()', () => {
  const { value, warnings } = parseIbnetdiscover(fixture('diags/lab-ibnetdiscover.txt'));

  it('reads nodes, connected ports and links of the lab', () => {
    expect(warnings).toEqual([]);
    expect(value.nodes).toHaveLength(38);
    expect(value.nodes.filter((n) => n.type === 'switch')).toHaveLength(6);
    expect(value.ports).toHaveLength(94);
    expect(value.links).toHaveLength(47);
    expect(value.initiatedFrom).toEqual({ nodeGuid: '0xfc6a1c0300001010', portGuid: '0xfc6a1c0300001010' });
    expect(value.nodes.find((n) => n.description === 'leaf-r0-01')).toMatchObject({
      guid: '0xfc6a1c0300001110',
      lid: 5,
      numPorts: 36,
    });
  });

  it('shows the degraded links from both ends', () => {
    const p = (guid: string, port: number) => value.ports.find((x) => x.nodeGuid === guid && x.portNum === port);
    expect(p('0xb83fd20300002050', 1)).toMatchObject({
      portGuid: '0xb83fd20300002051',
      lid: 17,
      widthActive: '2X',
      speedActive: 'HDR',
    });
    expect(p('0xfc6a1c0300001110', 5)).toMatchObject({ portGuid: '0xfc6a1c0300001110', lid: 5, widthActive: '2X' });
    expect(p('0xfc6a1c0300001120', 4)).toMatchObject({ widthActive: '4X', speedActive: 'EDR' });
    expect(value.links).toContainEqual({
      a: { nodeGuid: '0xb83fd20300002050', portNum: 1 },
      b: { nodeGuid: '0xfc6a1c0300001110', portNum: 5 },
    });
  });

  it('-f output (s=/w=/v= extras) gives the same topology', () => {
    const f = parseIbnetdiscover(fixture('diags/lab-ibnetdiscover-f.txt')).value;
    expect(f.links).toEqual(value.links);
    expect(f.ports).toEqual(value.ports);
  });

  it('real HDR sample: director with enhanced port 0 and short GUID ids', () => {
    const r = parseIbnetdiscover(fixture('diags/sample-ibnetdiscover.txt'));
    expect(r.warnings).toEqual([]);
    expect(r.value.nodes).toHaveLength(9);
    expect(r.value.nodes[0]).toMatchObject({ guid: '0x0ff08c43213b3f30', lid: 387, vendorId: 0x2c9, deviceId: 0xd2f0 });
    expect(r.value.ports.every((p) => p.speedActive === 'HDR' && p.widthActive === '4X')).toBe(true);
  });

  it('throws on empty/binary input, warns on an orphan port line', () => {
    expect(() => parseIbnetdiscover('')).toThrowError('ibnetdiscover: empty output');
    expect(() => parseIbnetdiscover(fixture('diags/binary.bad.txt'))).toThrowError(/binary data/);
    const r = parseIbnetdiscover(
      '[1]\t"S-01"[2]\t\t# "x" lid 1 4xHDR\n\ncaguid=0x1\nCa\t1 "H-0000000000000001"\t\t# "h"\n',
    );
    expect(r.warnings[0]).toMatchObject({ line: 1 });
    expect(r.value.nodes).toHaveLength(1);
  });
});

describe('parsePerfquery()', () => {
  it('plain PortCounters show the injected errors', () => {
    const { value, warnings } = parsePerfquery(fixture('diags/lab-perfquery.txt'));
    expect(warnings).toEqual([]);
    expect(value).toHaveLength(1);
    expect(value[0]).toMatchObject({ attribute: 'PortCounters', lid: 8, port: 17, capMask: 0x1300, allPorts: false });
    expect(value[0].counters).toMatchObject({
      SymbolErrorCounter: 120n,
      LinkErrorRecoveryCounter: 3n,
      LinkDownedCounter: 2n,
      PortXmitData: 167832n,
    });
    expect(value[0].selectors).toEqual({ PortSelect: 17n, CounterSelect: 0n, CounterSelect2: 0n });
  });

  it('-x reads the 64-bit data counter set with PerformanceSet', () => {
    const [b] = parsePerfquery(fixture('diags/lab-perfquery-x-p18.txt')).value;
    expect(b).toMatchObject({ attribute: 'PortCountersExtended', lid: 5, port: 18, capMask2: 0 });
    expect(b.counters.PortXmitData).toBe(9876543212427n);
  });

  it('-a gives port 255 sums; multi-port runs give one block per port', () => {
    expect(parsePerfquery(fixture('diags/lab-perfquery-a.txt')).value[0]).toMatchObject({
      port: 255,
      allPorts: true,
      counters: { SymbolErrorCounter: 120n },
    });
    expect(parsePerfquery(fixture('diags/lab-perfquery-multi.txt')).value.map((b) => b.port)).toEqual([1, 2, 3]);
  });

  it('real -x and -E sample (treydock) incl. 64-bit error counters', () => {
    const { value, warnings } = parsePerfquery(fixture('diags/sample-perfquery-x.txt'));
    expect(warnings).toEqual([]);
    expect(value.map((b) => b.attribute)).toEqual([
      'PortCountersExtended',
      'PortCountersExtended',
      'PortCountersExtended',
      'PortRcvErrorDetails',
    ]);
    expect(value[0]).toMatchObject({
      capMask: 0x5300,
      capMask2: 2,
      counters: { PortXmitData: 36298026860928n, PortXmitWait: 22730501n },
    });
  });

  it('merges into PortCounters by LID, extended values winning', () => {
    const blocks = [
      ...parsePerfquery(fixture('diags/lab-perfquery.txt')).value,
      ...parsePerfquery(fixture('diags/lab-perfquery-x.txt')).value,
    ];
    const [pc] = perfqueryPortCounters(blocks, new Map([[8, '0xfc6a1c0300001120']]));
    expect(pc).toMatchObject({ nodeGuid: '0xfc6a1c0300001120', portNum: 17 });
    expect(pc.counters.SymbolErrorCounter).toBe(120n);
    expect(pc.counters.PortXmitData).toBe(167976n);
  });

  it('warns on cut blocks and junk, throws on empty', () => {
    const r = parsePerfquery(
      '# Port counters: Lid 8 port 17 (CapMask: 0x1300)\nPortSelect:....17\nSymbolErrorCounter:...abc\n# ' +
        'Port counters: Lid 8 port 18 (CapMask: 0x1300)\n',
    );
    expect(r.warnings.map((w) => w.line)).toEqual([3, 4]);
    expect(() => parsePerfquery('\n')).toThrowError('perfquery: empty output');
    expect(() => parsePerfquery('ibwarn: something\n')).toThrowError(/no "# Port counters" header/);
  });
});
