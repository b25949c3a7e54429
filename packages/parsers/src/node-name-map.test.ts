import { describe, expect, it } from 'vitest';
import { formatNodeNameMapLine, parseNodeNameMap } from './node-name-map.ts';
import { fixture } from './diags/fixture.test-helper.ts';

describe('parseNodeNameMap()', () => {
  it('reads the lab map with the rack convention and free-form locations', () => {
    const { value, warnings } = parseNodeNameMap(fixture('diags/node-name-map.good.txt'));
    expect(warnings).toEqual([]);
    expect(value).toHaveLength(38);
    expect(value.find((e) => e.name === 'dgx-0005 mlx5_0')).toEqual({
      guid: '0xb83fd20300002050',
      name: 'dgx-0005 mlx5_0',
      rack: 'R01',
      u: 18,
      line: 7,
    });
    expect(value.find((e) => e.name === 'spine-01')).toMatchObject({
      guid: '0xfc6a1c0300001010',
      location: 'network row, cabinet 1',
    });
  });

  it('handles odd GUIDs, unquoted names, CRLF and reports bad lines', () => {
    const { value, warnings } = parseNodeNameMap(fixture('diags/node-name-map.bad.txt'), { file: 'm.bad' });
    expect(value.map((e) => [e.guid, e.name])).toEqual([
      ['0xb83fd20300002050', 'dgx-0005 renamed'],
      ['0x0002c9020040f161', 'switch-a'],
      ['0xb83fd20300002070', 'unterminated'],
    ]);
    expect(value[0]).toMatchObject({ rack: 'R02', u: 3, attrs: { row: 'B' }, location: 'spare', line: 7 });
    expect(warnings.map((w) => [w.line, w.message.slice(0, 30)])).toEqual([
      [4, 'invalid GUID "0xZZZ"; line ski'],
      [5, 'GUID without a name; line skip'],
      [6, 'unterminated quote; name runs '],
      [7, 'GUID 0xb83fd20300002050 listed'],
    ]);
    expect(warnings[0].file).toBe('m.bad');
  });

  it('round-trips the convention and rejects binary data', () => {
    const line = formatNodeNameMapLine({ guid: '0xb83fd20300002050', name: 'dgx-0005 mlx5_0', rack: 'R07', u: 12 });
    expect(line).toBe('0xb83fd20300002050 "dgx-0005 mlx5_0"  # rack=R07 u=12');
    expect(parseNodeNameMap(line).value[0]).toMatchObject({ rack: 'R07', u: 12 });
    expect(() => parseNodeNameMap(fixture('diags/binary.bad.txt'))).toThrowError(/node-name-map:2: binary data/);
    expect(parseNodeNameMap('').value).toEqual([]);
  });
});
