import { describe, it, expect } from 'vitest';
import { parseAttached, parsePortAddr } from './console.ts';
import { checkReply, parsePerfquery, parsePortRate, rateMismatch } from './faults.ts';
import { parsePortsListLids } from './lids.ts';
import { parseSmir, parseSminfo } from './status.ts';

describe('tool output parsers', () => {
  it('parsePortAddr() accepts quoted and bare names', () => {
    expect(parsePortAddr('"leaf-r0-01"[21]')).toEqual({ node: 'leaf-r0-01', port: 21 });
    expect(parsePortAddr('dgx-0003 mlx5_2[1]')).toEqual({ node: 'dgx-0003 mlx5_2', port: 1 });
    expect(() => parsePortAddr('leaf-r0-01')).toThrow(/not a port address/);
  }, 10_000);

  it('parseAttached() reads SM and tool clients', () => {
    const text = [
      'Client 0: pid 13399 connected at "head-01 mlx5_0" port 0xb83fd203ff000101, lid 1, qp 0 SM',
      'ibwarn: [13398] process_packet: lid 6 got trap repress - dropping',
      'Client 2: pid 13650 connected at "leaf-r0-01" port 0xfc6a1c0301000001, lid 2, qp 0 ',
    ].join('\n');
    expect(parseAttached(text)).toEqual([
      { client: 0, pid: 13399, node: 'head-01 mlx5_0', sm: true },
      { client: 2, pid: 13650, node: 'leaf-r0-01', sm: false },
    ]);
  }, 10_000);

  it('checkReply() turns ibsim comment errors into exceptions', () => {
    expect(() => checkReply('Unlink "nope"[1]', '# nodeid "nope" (nope) not found\n')).toThrow(/not found/);
    expect(() => checkReply('x', '# field Bogus cannot be found in attribute PortCounters')).toThrow(/cannot be found/);
    expect(() => checkReply('x', 'leaf-r0-01[1] PortCounters.SymbolErrorCounter has been set to 5\n')).not.toThrow();
  }, 10_000);

  it('parsePortsListLids() maps both ends of ibnetdiscover -p lines', () => {
    const m = parsePortsListLids(
      [
        "SW     2 36 0xfc6a1c0301000001 4x HDR - SW     3  4 0xfc6a1c0302000001 ( 'leaf-r0-01' - 'spine-01' )",
        "CA     6  1 0xb83fd203ff000201 4x HDR - SW   147  2 0xfc6a1c0301000009 ( 'head-02 mlx5_0' - 'leaf-mgmt-01' )",
        'garbage',
      ].join('\n'),
    );
    expect(Object.fromEntries(m)).toEqual({ 'leaf-r0-01': 2, 'spine-01': 3, 'head-02 mlx5_0': 6, 'leaf-mgmt-01': 147 });
  }, 10_000);

  it('parseSmir() / parseSminfo() read SM records', () => {
    const smir =
      'SMInfoRecord dump:\n\t\tRID\n\t\tLID...................1\n\t\tSMInfo ' +
      'dump:\n\t\tGUID..................0xb83fd203ff000101\n' +
      '\t\tSM_Key................0x0000000000000000\n\t\tActCount..............12503\n' +
      '\t\tPriority..............15\n\t\tSMState...............3\n';
    expect(parseSmir(smir)).toEqual([
      { lid: 1, guid: '0xb83fd203ff000101', priority: 15, state: 'MASTER', activityCount: 12503n },
    ]);
    expect(
      parseSminfo('sminfo: sm lid 6 sm guid 0xb83fd203ff000201, activity count 3 priority 1 state 2 SMINFO_STANDBY'),
    ).toMatchObject({ lid: 6, priority: 1, state: 'STANDBY' });
    expect(parseSminfo('garbage')).toBeUndefined();
  }, 10_000);

  it('parsePerfquery() reads dotted counter lines', () => {
    const r = parsePerfquery(
      '# Port counters: Lid 2 port 33 (CapMask: ' +
        '0x1300)\nPortSelect:......................33\nCounterSelect:...................0x0000\n' +
        'SymbolErrorCounter:..............12\n',
    );
    expect(r.SymbolErrorCounter).toBe(12n);
    expect(r.CounterSelect).toBe(0n);
  }, 10_000);

  it('parsePortRate() / rateMismatch() judge both width and ext speed from smpquery portinfo', () => {
    const pi = (we: string, wa: string, se: string, sa: string): string =>
      `# Port info: Lid 79 port ` +
      `1\nLinkWidthEnabled:................${we}\nLinkWidthSupported:..............1X or 4X or 8X or 12X or 2X\n` +
      `LinkWidthActive:.................${wa}\nLinkSpeedExtActive:..............${sa}\n` +
      `LinkSpeedExtEnabled:.............${se}\n`;
    const hdr = '14.0625 Gbps or 25.78125 Gbps or 53.125 Gbps';
    const r = parsePortRate(pi('1X or 2X', '2X', hdr, '53.125 Gbps'));
    expect(r).toEqual({
      widthEnabled: '1X or 2X',
      widthActive: '2X',
      speedExtEnabled: hdr,
      speedExtActive: '53.125 Gbps',
    });
    expect(rateMismatch(r, { width: '2X' })).toBeUndefined();
    expect(rateMismatch(r, { width: '2X', speed: 'HDR' })).toBeUndefined();
    // The observed write-back: mask restored on this end, active re-derived to 4X.
    expect(rateMismatch(parsePortRate(pi('1X or 4X', '4X', hdr, '53.125 Gbps')), { width: '2X' })).toMatch(
      /width active 4X/,
    );
    // Enabled changed but active not (yet): not held.
    expect(rateMismatch(parsePortRate(pi('1X or 2X', '4X', hdr, '53.125 Gbps')), { width: '2X' })).toMatch(/want 2X/);
    const edr = parsePortRate(pi('1X or 4X', '4X', '14.0625 Gbps or 25.78125 Gbps', '25.78125 Gbps'));
    expect(rateMismatch(edr, { speed: 'EDR', width: '4X' })).toBeUndefined();
    expect(rateMismatch(edr, { speed: 'HDR' })).toMatch(/want 53\.125 Gbps/);
  }, 10_000);
});
