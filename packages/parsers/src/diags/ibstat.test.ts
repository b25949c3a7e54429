import { describe, expect, it } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { detectDiagsFormat } from './detect.ts';
import { fixture } from './fixture.test-helper.ts';
import { parseIbstat } from './ibstat.ts';

describe('parseIbstat()', () => {
  it('ibstat: state, physical state, rate, firmware, link layer, LIDs and GUIDs of an HDR port', () => {
    const { value, warnings } = parseIbstat(fixture('diags/sample-ibstat-hdr.txt'));
    expect(warnings).toEqual([]);
    expect(value.format).toBe('ibstat');
    expect(value.ports).toEqual([
      {
        ca: 'mlx5_5',
        portNum: 1,
        state: 'Active',
        physState: 'LinkUp',
        rateGbps: 200,
        linkLayer: 'InfiniBand',
        ethernet: false,
        baseLid: 18,
        smLid: 4,
        portGuid: '0x08c0eb0300ea50e6',
        nodeGuid: '0x08c0eb0300ea50e6',
        firmware: '20.30.1004',
        caType: 'MT4123',
        line: 8,
      },
    ]);
  });

  it('ibstatus: RoCE ports are told apart from IB ports; 4: ACTIVE / 1: DOWN read as states', () => {
    const { value } = parseIbstat(fixture('diags/sample-ibstatus-roce-ib.txt'));
    expect(value.format).toBe('ibstatus');
    expect(value.ports.map((p) => [p.ca, p.state, p.physState, p.rateGbps, p.rateText, p.ethernet, p.baseLid])).toEqual(
      [
        ['mlx5_0', 'Active', 'LinkUp', 100, '4X EDR', true, 0],
        ['mlx5_1', 'Active', 'LinkUp', 200, '4X HDR', false, 9],
        ['mlx5_2', 'Down', 'Disabled', 100, '4X EDR', true, 0],
        ['mlx5_3', 'Active', 'LinkUp', 200, '4X HDR', false, 8],
      ],
    );
    expect(value.ports[1].smLid).toBe(6);
    // The IB port's GUID from its GID; a RoCE GID is MAC-based and gives none.
    expect(value.ports.map((p) => p.portGuid)).toEqual([
      undefined,
      '0x946dae0300fce51c',
      undefined,
      '0x946dae0300fce548',
    ]);
  });

  it('a paste cut inside a port block (no State line) fails naming the file and the port line', () => {
    const text = fixture('diags/sample-ibstat-hdr.txt').split('\n').slice(0, 8).join('\n');
    expect(() => parseIbstat(text, { file: 'node7.txt' })).toThrow(ParseError);
    expect(() => parseIbstat(text, { file: 'node7.txt' })).toThrow(/node7\.txt:8.*cut short: no State line/);
  });

  it('garbage (no ibstat or ibstatus header) fails; binary fails naming its line', () => {
    expect(() => parseIbstat('hello\nworld\n', { file: 'x.txt' })).toThrow(/neither ibstat/);
    expect(() => parseIbstat("CA 'mlx5_0'\n\u0000\u0000\u00ff\n", { file: 'x.txt' })).toThrow(/x\.txt:2/);
  });
});

describe('detectDiagsFormat()', () => {
  it('tells each pasted tool output from its content', () => {
    expect(detectDiagsFormat(fixture('diags/sample-ibstat-hdr.txt'))).toBe('ibstat');
    expect(detectDiagsFormat(fixture('diags/sample-ibstatus-roce-ib.txt'))).toBe('ibstatus');
    expect(detectDiagsFormat(fixture('diags/sample-ibqueryerrors.txt'))).toBe('ibqueryerrors');
    expect(detectDiagsFormat(fixture('diags/sample-ibqueryerrors-excerpt.txt'))).toBe('ibqueryerrors');
    expect(detectDiagsFormat(fixture('diags/lab-ibqueryerrors-counters.txt'))).toBe('ibqueryerrors');
    expect(detectDiagsFormat(fixture('diags/lab-perfquery-x.txt'))).toBe('perfquery');
    expect(detectDiagsFormat(fixture('diags/sample-iblinkinfo.txt'))).toBe('iblinkinfo');
    expect(detectDiagsFormat(fixture('diags/lab-iblinkinfo-l.txt'))).toBe('iblinkinfo');
    expect(detectDiagsFormat('total 0\n')).toBeUndefined();
  });
});
