import { describe, expect, it } from 'vitest';
import { parseIbnetdiscoverPorts } from './ibnetdiscover-ports.ts';
import { fixture } from './fixture.test-helper.ts';

describe('parseIbnetdiscoverPorts() on the lab capture', () => {
  const { value, warnings } = parseIbnetdiscoverPorts(fixture('diags/lab-ibnetdiscover-p.txt'));

  it('counts ports and links', () => {
    expect(warnings).toEqual([]);
    expect(value.ports).toHaveLength(248);
    expect(value.ports.filter((p) => p.peer)).toHaveLength(94);
    expect(value.links).toHaveLength(47);
  });

  it('reports the degraded links', () => {
    const w = value.ports.find((p) => p.description === 'dgx-0005 mlx5_0')!;
    expect(w).toMatchObject({
      kind: 'CA',
      lid: 17,
      portNum: 1,
      portGuid: '0xb83fd20300002051',
      widthActive: '2X',
      speedActive: 'HDR',
    });
    expect(w.peer).toEqual({
      kind: 'SW',
      lid: 5,
      portNum: 5,
      portGuid: '0xfc6a1c0300001110',
      description: 'leaf-r0-01',
    });
    const s = value.links.find((l) => l.a.description === 'dgx-0012 mlx5_0' || l.b.description === 'dgx-0012 mlx5_0')!;
    expect(s).toMatchObject({ widthActive: '4X', speedActive: 'EDR' });
  });

  it('keeps raw width/speed of unconnected ports but no active values', () => {
    const down = value.ports.find((p) => p.description === 'spine-02' && p.portNum === 8)!;
    // unlinked at runtime: PortInfo still holds the old HDR; a never-cabled port shows SDR
    expect(down).toMatchObject({ widthRaw: '4x', speedRaw: 'HDR' });
    expect(value.ports.find((p) => p.description === 'spine-02' && p.portNum === 36)?.speedRaw).toBe('SDR');
    expect(down.speedActive).toBeUndefined();
    expect(down.peer).toBeUndefined();
  });
});

describe('parseIbnetdiscoverPorts() on real samples and bad input', () => {
  it('handles ??? speeds, padded and unquoted descriptions', () => {
    const { value, warnings } = parseIbnetdiscoverPorts(fixture('diags/sample-ibnetdiscover-p.txt'));
    expect(warnings).toEqual([]);
    expect(value.ports).toHaveLength(16);
    expect(value.ports.find((p) => p.portNum === 37)).toMatchObject({ speedRaw: '???', description: 'ib-i4l1s01' });
    expect(value.ports.find((p) => p.lid === 25)?.description).toBe(' 5FB0406-spine-IB02 ');
    expect(value.ports.find((p) => p.lid === 479)?.description).toBe('Infiniscale-IV Mellanox Technologies');
    expect(value.ports[0]).toMatchObject({ speedActive: 'EDR', peer: { lid: 1719, portNum: 10 } });
  });

  it('warns about a line with too few fields and normalises odd GUIDs', () => {
    const { value, warnings } = parseIbnetdiscoverPorts(fixture('diags/ibnetdiscover-p-fields.bad.txt'), {
      file: 'p.bad',
    });
    expect(warnings).toEqual([
      { line: 4, file: 'p.bad', message: 'not a port line: "CA    31  1 0xb83fd203000020c1 4x"' },
    ]);
    expect(value.ports[3]).toMatchObject({ portGuid: '0xb83fd203000020c1', peer: { portGuid: '0xfc6a1c0300001120' } });
    expect(value.ports[4]).toMatchObject({ portGuid: '0x0002c9020040f161', speedRaw: 'QDR' });
  });

  it('throws on empty, binary and unusable input', () => {
    expect(() => parseIbnetdiscoverPorts('')).toThrowError('ibnetdiscover-p: empty output');
    expect(() => parseIbnetdiscoverPorts(fixture('diags/binary.bad.txt'))).toThrowError(
      /ibnetdiscover-p:2: binary data/,
    );
    expect(() => parseIbnetdiscoverPorts('hello\nworld\n')).toThrowError('ibnetdiscover-p: no port lines found');
  });
});
