import { describe, expect, it } from 'vitest';
import { parseIblinkinfo, type LinkInfoPort } from './iblinkinfo.ts';
import { fixture } from './fixture.test-helper.ts';

const at = (ports: LinkInfoPort[], desc: string, port: number) =>
  ports.find((p) => p.nodeDescription === desc && p.portNum === port);

describe('parseIblinkinfo() on the lab capture', () => {
  const { value, warnings } = parseIblinkinfo(fixture('diags/lab-iblinkinfo.txt'));

  it('finds every port and link', () => {
    expect(warnings).toEqual([]);
    expect(value.ports).toHaveLength(248);
    expect(value.links).toHaveLength(47); // 32 HCA links + 16 ISLs - 1 unlinked
    expect(value.ports.filter((p) => p.state === 'Down' && p.physState === 'Polling')).toHaveLength(154);
  });

  it('shows the width-degraded link on both ends', () => {
    expect(at(value.ports, 'dgx-0005 mlx5_0', 1)).toMatchObject({
      nodeType: 'ca',
      portGuid: '0xb83fd20300002051',
      lid: 17,
      widthActive: '2X',
      speedActive: 'HDR',
      laneGbps: '53.125',
      state: 'Active',
      physState: 'LinkUp',
      peer: { lid: 5, portNum: 5, description: 'leaf-r0-01' },
      couldBe: ['12X'],
    });
    expect(at(value.ports, 'leaf-r0-01', 5)).toMatchObject({
      widthActive: '2X',
      nodeGuid: '0xfc6a1c0300001110',
      portGuid: '0xfc6a1c0300001110',
    });
  });

  it('shows the speed-degraded link with its Could be hint', () => {
    expect(at(value.ports, 'leaf-r0-02', 4)).toMatchObject({
      widthActive: '4X',
      speedActive: 'EDR',
      laneGbps: '25.78125',
      couldBe: ['12X', '53.125 Gbps'],
      peer: { lid: 31, portNum: 1, description: 'dgx-0012 mlx5_0' },
    });
  });

  it('shows the unlinked ISL as Down/Polling without a peer', () => {
    const p = at(value.ports, 'spine-02', 8)!;
    expect(p).toMatchObject({ state: 'Down', physState: 'Polling', couldBe: [] });
    expect(p.peer).toBeUndefined();
    expect(p.widthActive).toBeUndefined();
    expect(at(value.ports, 'leaf-r0-04', 20)?.state).toBe('Down');
  });
});

describe('parseIblinkinfo() variants', () => {
  it('-l lines carry both GUIDs', () => {
    const { value, warnings } = parseIblinkinfo(fixture('diags/lab-iblinkinfo-l.txt'));
    expect(warnings).toEqual([]);
    expect(value.ports).toHaveLength(248);
    const p = at(value.ports, 'dgx-0032 mlx5_0', 1)!;
    expect(p).toMatchObject({
      portGuid: '0xb83fd20300002201',
      peer: { guid: '0xfc6a1c0300001140', lid: 14, portNum: 8 },
    });
    expect(p.nodeType).toBeUndefined();
  });

  it('real sample: EDR/HDR/QDR speeds, elided and cut lines become warnings', () => {
    const { value, warnings } = parseIblinkinfo(fixture('diags/sample-iblinkinfo.txt'));
    expect(at(value.ports, 'gpu-v100-3 HCA-1', 1)).toMatchObject({ speedActive: 'EDR', widthActive: '4X' });
    expect(at(value.ports, 'Mellanox Technologies Aggregation Node', 1)?.speedActive).toBe('HDR');
    expect(at(value.ports, 'centos-data-200 HCA-1', 1)?.speedActive).toBe('QDR');
    expect(value.ports.filter((p) => p.physState === 'Polling')).toHaveLength(8);
    expect(warnings.map((w) => w.message)).toEqual([
      'unrecognised line: "           ..."',
      expect.stringMatching(/^incomplete port line \(output cut\?\)/),
    ]);
    expect(warnings[1].line).toBe(15);
  });

  it('parses CRLF output identically', () => {
    const lf = fixture('diags/lab-iblinkinfo.txt');
    expect(parseIblinkinfo(lf.replace(/\n/g, '\r\n')).value).toEqual(parseIblinkinfo(lf).value);
  });

  it('onPort: hands over each port as parsed, collecting none', () => {
    const text = fixture('diags/lab-iblinkinfo.txt');
    const handed: LinkInfoPort[] = [];
    const r = parseIblinkinfo(text, { onPort: (p) => handed.push(p) });
    expect(handed).toEqual(parseIblinkinfo(text).value.ports);
    expect(r.value).toEqual({ ports: [], links: [] });
    expect(() => parseIblinkinfo('CA: dgx-0001 mlx5_0:\n', { onPort: () => undefined })).toThrowError(
      /no port lines found/,
    );
  });

  it('throws on empty and binary input', () => {
    expect(() => parseIblinkinfo('', { file: 'x.txt' })).toThrowError('iblinkinfo:x.txt: empty output');
    expect(() => parseIblinkinfo(fixture('diags/binary.bad.txt'))).toThrowError(/iblinkinfo:2: binary data/);
  });
});
