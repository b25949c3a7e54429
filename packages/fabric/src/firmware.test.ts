import { describe, expect, it } from 'vitest';
import { compareVersions, firmwareInventory, type FirmwareNodeInput } from './firmware.ts';

const node = (guid: string, version: string, over: Partial<FirmwareNodeInput> = {}): FirmwareNodeInput => ({
  guid,
  name: 'Quantum-2 Mellanox Technologies',
  type: 'switch',
  tier: 'leaf',
  version,
  hwRevision: 0xa0,
  observedAt: 1000,
  deviceId: 54002,
  psid: 'MT_0000000579',
  ...over,
});

describe('compareVersions()', () => {
  it('orders by number, part by part', () => {
    expect(compareVersions('31.2012.1068', '31.2012.1024')).toBeGreaterThan(0);
    expect(compareVersions('28.9.1000', '28.41.1000')).toBeLessThan(0);
    expect(compareVersions('28.41', '28.41.0')).toBe(0);
    expect(['31.2012.1068', '28.40.1000', '31.2012.1024'].sort(compareVersions)).toEqual([
      '28.40.1000',
      '31.2012.1024',
      '31.2012.1068',
    ]);
  });
});

describe('firmwareInventory()', () => {
  // The real run's switches: the spine on its own PSID, 7 leaves behind the one on 1068.
  const leaves = [
    ...Array.from({ length: 7 }, (_, i) => node(`0xfc6a1c03009100${i}0`, '31.2012.1024')),
    node('0xb0cf0e0300e5b940', '31.2012.1068'),
  ];
  const spine = node('0xb0cf0e0300d33fc0', '31.2012.1024', {
    psid: 'MT_0000000577',
    tier: 'spine',
    name: 'MF0;ib-switch-sequoia:MQM9700/U1',
  });
  const hcas = Array.from({ length: 3 }, (_, i) =>
    node(`0x5c25730300e6700${i}`, '28.40.1000', { type: 'ca', tier: 'hca', deviceId: 4129, psid: 'MT_0000001120' }),
  );

  it('groups by device and PSID, finds the latest and lists the stragglers, oldest first', () => {
    const r = firmwareInventory([spine, ...leaves, ...hcas], 7, 5000);
    expect(r).toMatchObject({ generatedAt: 5000, observedAt: 1000, nodes: 12, unreported: 7 });
    expect(r.groups.map((g) => [g.device, g.psid, g.nodes, g.latest, g.stragglers.length])).toEqual([
      ['Quantum-2', 'MT_0000000579', 8, '31.2012.1068', 7],
      ['ConnectX-7', 'MT_0000001120', 3, '28.40.1000', 0],
      ['Quantum-2', 'MT_0000000577', 1, '31.2012.1024', 0],
    ]);
    expect(r.groups[0]!.versions).toEqual([
      { version: '31.2012.1068', nodes: 1 },
      { version: '31.2012.1024', nodes: 7 },
    ]);
    expect(r.groups[0]!.tiers).toEqual([{ tier: 'leaf', nodes: 8 }]);
    expect(r.groups[0]!.stragglers[0]).toEqual({
      guid: '0xfc6a1c0300910000',
      name: 'Quantum-2 Mellanox Technologies',
      type: 'switch',
      tier: 'leaf',
      version: '31.2012.1024',
      hwRevision: 0xa0,
      observedAt: 1000,
      stale: false,
    });
  });

  it('marks a straggler last seen before the newest run stale, and keeps nodes without PSID apart', () => {
    const old = node('0xfc6a1c0300910070', '31.2012.1000', { observedAt: 500 });
    const an = node('0xb0cf0e0300e5b948', '31.2012.1024', {
      psid: null,
      deviceId: 53001,
      type: 'ca',
      tier: 'aggregation',
    });
    const r = firmwareInventory([...leaves, old, an], 0, 5000);
    const g = r.groups.find((x) => x.psid === 'MT_0000000579')!;
    expect(g.stragglers.map((s) => [s.version, s.stale])[0]).toEqual(['31.2012.1000', true]);
    const ans = r.groups.find((x) => x.deviceId === 53001)!;
    expect([ans.device, ans.psid, ans.stragglers]).toEqual(['SHARP Aggregation Node', null, []]);
  });

  it('counts the versions of nodes without a PSID but calls none a straggler: they may run other images', () => {
    const noPsid = hcas.map((h, i) => ({ ...h, psid: null, version: i ? '28.40.1000' : '28.41.1000' }));
    const [g] = firmwareInventory(noPsid, 0, 5000).groups;
    expect(g!.versions).toEqual([
      { version: '28.41.1000', nodes: 1 },
      { version: '28.40.1000', nodes: 2 },
    ]);
    expect([g!.latest, g!.stragglers]).toEqual(['28.41.1000', []]);
  });

  it('is empty before any run reported firmware', () => {
    expect(firmwareInventory([], 272, 1)).toEqual({
      generatedAt: 1,
      observedAt: null,
      nodes: 0,
      unreported: 272,
      groups: [],
    });
  });
});
