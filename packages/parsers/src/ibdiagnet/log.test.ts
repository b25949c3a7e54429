import { describe, expect, it } from 'vitest';
import { parseIbdiagnetLog } from './log.ts';
import { parseError } from '../common/parse-error.test-helper.ts';
import { excerpt, fixture, real, runA, runB } from './fixtures.test-helper.ts';

describe('parseIbdiagnetLog()', () => {
  const a = parseIbdiagnetLog(real(runA, 'ibdiagnet2.log'));

  it('reads header, stages, the PM interval and the Summary table of the real run', () => {
    expect(a.warnings).toEqual([]);
    const v = a.value;
    expect(v.header.runningTimestamp).toBe('2025-03-31 23:43:18 UTC +0000');
    expect(v.header.runningCommand).toBe('/usr/bin/ibdiagnet');
    expect(v.stages).toHaveLength(14);
    expect(v.stages.slice(0, 3)).toEqual(['Discovery', 'Lids Check', 'Links Check']);
    expect(v.pmIntervalSeconds).toBe(1);
    expect(v.summary).toHaveLength(12);
    expect(v.summary[0]).toEqual({ stage: 'Discovery', warnings: 17, errors: 0 });
    expect(v.summary.find((s) => s.stage === 'Speed / Width checks')).toEqual({
      stage: 'Speed / Width checks',
      warnings: 0,
      errors: 0,
    });
    expect(v.summary.find((s) => s.stage === 'Nodes Information')?.warnings).toBe(7);
    expect(v.outputFiles['Database']).toBe('/var/tmp/ibdiagnet2/ibdiagnet2.db_csv');
  });

  it('reads check results and the -W- detail lines with their node GUID', () => {
    const v = a.value;
    expect(v.checks.filter((c) => c.result === 'warnings').map((c) => c.name)).toEqual([
      'VS Capability GMP',
      'Duplicated Node Description detection',
      'Port Hierarchy Info',
      'FW Check',
    ]);
    expect(v.checks.find((c) => c.name === 'Links Speed Check')).toMatchObject({
      result: 'ok',
      stage: 'Speed / Width checks',
    });
    // 5 + 1 note + 5 + 2 + 5 detail lines.
    expect(v.messages).toHaveLength(18);
    expect(v.messages[0]).toMatchObject({
      severity: 'warning',
      stage: 'Discovery',
      object: 'Sb0cf0e0300e5b940/Nb0cf0e0300e5b948',
      message: 'No response for MAD VSGeneralInfo, status = 4',
      nodeGuid: '0xb0cf0e0300e5b948',
    });
    expect(v.messages.filter((m) => m.code === 'NOTE')).toHaveLength(1);
  });

  it('reads the Fabric Summary and the master SM line', () => {
    expect(a.value.fabricSummary).toMatchObject({
      'Total Nodes': '272',
      'IB Switches': '9',
      'Total number of links': '271',
      'Links at 4x100': '271',
    });
    expect(a.value.masterSm).toEqual({
      guid: '0xb0cf0e0300d33fc0',
      lid: 180,
      priority: 12,
      portNum: 0,
      description: 'MF0;ib-switch-sequoia:MQM9700/U1',
    });
  });

  it('lists only the stages that ran and the skipped checks of a --skip run', () => {
    const b = parseIbdiagnetLog(real(runB, 'ibdiagnet2.log')).value;
    expect(b.summary.map((s) => s.stage)).toEqual([
      'Discovery',
      'Subnet Manager',
      'Virtualization',
      'Partition Keys',
      'Temperature Sensing',
      'Routers',
      'Post Reports Generation',
    ]);
    expect(b.checks.filter((c) => c.result === 'skipped').map((c) => c.name)).toEqual([
      'Duplicated Node Description detection',
      'Advanced Duplicated GUIDs detection',
    ]);
    expect(b.pmIntervalSeconds).toBeUndefined();
    const excerptB = parseIbdiagnetLog(excerpt('ibdiagnet2.log.skip-stages.sample')).value;
    expect(excerptB.summary).toEqual(b.summary);
  });

  it('classifies speed/width mismatches and counter increases, joining continuation lines', () => {
    const r = parseIbdiagnetLog(fixture('speed-width-mismatch.good.log'));
    const v = r.value;
    expect(v.pmIntervalSeconds).toBe(2);
    expect(v.messages.map((m) => [m.severity, m.code, m.stage])).toEqual([
      ['error', 'COUNTER_INCREASED', 'Port Counters'],
      ['error', undefined, 'Port Counters'],
      ['warning', 'LINK_SPEED_MISMATCH', 'Speed / Width checks'],
      ['warning', 'LINK_WIDTH_MISMATCH', 'Speed / Width checks'],
    ]);
    expect(v.messages[1].text).toBe(
      'lid=0x0008 dev=51000 Sfc6a1c030091cf00/Nfc6a1c030091cf00/P27; Performance ' +
        'Monitor counter     : Value; port_rcv_switch_relay_errors    : 65535 (overflow)',
    );
    expect(v.messages[2]).toMatchObject({ message: 'Unexpected actual link speed 50', nodeGuid: '0xfc6a1c030091cf00' });
    expect(v.checks.filter((c) => c.result !== 'ok').map((c) => [c.name, c.result])).toEqual([
      ['Ports counters Difference Check (during run)', 'errors'],
      ['Links Speed Check', 'warnings'],
      ['Links Width Check', 'warnings'],
    ]);
    expect(v.summary).toEqual([
      { stage: 'Port Counters', warnings: 0, errors: 2 },
      { stage: 'Speed / Width checks', warnings: 2, errors: 0 },
    ]);
  });

  it('warns when the log stops before its Summary', () => {
    const cut = real(runA, 'ibdiagnet2.log').split('\n').slice(0, 100).join('\n');
    const r = parseIbdiagnetLog(cut);
    expect(r.value.stages).toContain('Port Counters');
    expect(r.warnings.map((w) => w.message)).toEqual(['no Summary stage: ibdiagnet interrupted or log truncated']);
  });

  it('rejects an empty log and a page of HTML', () => {
    expect(parseError(() => parseIbdiagnetLog('')).reason).toBe('empty file');
    expect(parseError(() => parseIbdiagnetLog(fixture('garbage.bad.log'))).reason).toMatch(/^not an ibdiagnet2.log/);
  });
});
