import { describe, expect, it } from 'vitest';
import { parseDbCsv } from './db-csv.ts';
import { parseIbdiagnetLog } from './log.ts';
import { buildChecks, buildFindings, buildFirmware, checkId } from './snapshot-checks.ts';
import { fixture, readRunDir, real, runA, runB } from './fixtures.test-helper.ts';

/*
 * Expected firmware figures of the real run, counted without this parser:
 *   awk '/^START_NODES_INFO/{p=1;getline;next} /^END_NODES_INFO/{p=0} p' ibdiagnet2.db_csv \
 *     | awk -F, '{print $2, $14, $16"."$17"."$18}' | sort | uniq -c
 * → 255 CX-7 (0x1021) MT_0000001120 0x1c.0x28.0x3e8, 1 CX-7 MT_0000000970 0x1c.0x29.0x3e8,
 *   1 Quantum-2 (0xd2f2) MT_0000000577 0x1f.0x7dc.0x400, 7 MT_0000000579 0x1f.0x7dc.0x400 and
 *   1 MT_0000000579 0x1f.0x7dc.0x42c: 265 rows; GENERAL_INFO_SMP has all 272 nodes.
 */
describe('firmware of the real runs', () => {
  it('takes NODES_INFO for the 265 nodes that answered it, GENERAL_INFO_SMP for the 7 Aggregation Nodes', async () => {
    const { value: s } = readRunDir(runA);
    const fw = s.firmware!;
    expect(fw).toHaveLength(272);
    const count = (f: (x: (typeof fw)[number]) => boolean) => fw.filter(f).length;
    expect(count((f) => f.psid === 'MT_0000001120' && f.version === '28.40.1000')).toBe(255);
    expect(count((f) => f.psid === 'MT_0000000970' && f.version === '28.41.1000')).toBe(1);
    expect(count((f) => f.psid === 'MT_0000000579' && f.version === '31.2012.1024')).toBe(7);
    expect(count((f) => f.psid === 'MT_0000000579' && f.version === '31.2012.1068')).toBe(1);
    expect(fw.find((f) => f.nodeGuid === '0xb0cf0e0300d33fc0')).toEqual({
      nodeGuid: '0xb0cf0e0300d33fc0',
      version: '31.2012.1024',
      psid: 'MT_0000000577',
      deviceId: 54002,
      hwRevision: 0xa0,
    });
    // The Aggregation Node of the one leaf on 1068 runs 1068 too; its device comes from NODES.
    expect(fw.find((f) => f.nodeGuid === '0xb0cf0e0300e5b948')).toEqual({
      nodeGuid: '0xb0cf0e0300e5b948',
      version: '31.2012.1068',
      deviceId: 53001,
    });
    expect(count((f) => f.deviceId === 53001 && f.psid === undefined)).toBe(7);
  });

  it('has versions without PSIDs for the --skip nodes_info run', async () => {
    const { value: s } = readRunDir(runB);
    expect(s.firmware).toHaveLength(272);
    expect(s.firmware!.every((f) => f.psid === undefined && f.deviceId !== undefined)).toBe(true);
    expect(s.firmware!.filter((f) => f.version === '31.2012.1068').map((f) => f.nodeGuid)).toEqual([
      '0xb0cf0e0300e5b940',
      '0xb0cf0e0300e5b948',
    ]);
  });
});

describe('firmware sections', () => {
  const r = parseDbCsv(fixture('firmware.good.db_csv'), { file: 'firmware.good.db_csv' });

  it('reads extended and classic versions, drops rows without one and warns of a bad GUID by line', () => {
    expect(r.value.firmware.map((f) => [f.source, f.nodeGuid, f.version, f.psid])).toEqual([
      ['GENERAL_INFO_SMP', '0xb0cf0e0300d33fc0', '31.2012.1024', undefined],
      ['GENERAL_INFO_SMP', '0xb0cf0e0300e5b940', '31.2012.1068', undefined],
      ['GENERAL_INFO_SMP', '0xb0cf0e0300e5b948', '31.2012.1068', undefined],
      ['NODES_INFO', '0xb0cf0e0300d33fc0', '31.2012.1024', 'MT_0000000577'],
      ['NODES_INFO', '0xb0cf0e0300e5b940', '31.2012.1068', 'MT_0000000579'],
      ['NODES_INFO', '0x5c25730300e6706e', '28.40.1000', 'MT_0000001120'],
      // Extended fields all 0: FWInfo_Major.Minor.SubMinor; PSID `N/A` is no PSID.
      ['NODES_INFO', '0x0002c90300000001', '2.12.100', undefined],
    ]);
    expect(r.warnings).toEqual([
      { file: 'firmware.good.db_csv', line: 29, message: 'NODES_INFO row skipped: bad NodeGUID "not-a-guid"' },
    ]);
  });

  it('prefers the NODES_INFO row of a node and fills the device from NODES', () => {
    const nodes = new Map(r.value.nodes.map((n) => [n.guid, n]));
    const fw = buildFirmware(r.value, nodes);
    expect(fw.map((f) => [f.nodeGuid, f.psid ?? null, f.deviceId])).toEqual([
      ['0xb0cf0e0300d33fc0', 'MT_0000000577', 54002],
      ['0xb0cf0e0300e5b940', 'MT_0000000579', 54002],
      ['0xb0cf0e0300e5b948', null, 53001],
      ['0x5c25730300e6706e', 'MT_0000001120', 4129],
      ['0x0002c90300000001', null, 4099],
    ]);
  });

  it('refuses a firmware section without version columns', () => {
    const text = fixture('firmware.good.db_csv').replace(
      'NodeGUID,FWInfo_Extended_Major,FWInfo_Extended_Minor,FWInfo_Extended_SubMinor,',
      'NodeGUID,A,B,C,',
    );
    const r = parseDbCsv(text);
    expect(r.warnings.map((x) => x.message)).toContain(
      'section GENERAL_INFO_SMP missing column FWInfo_Extended_Major; section ignored',
    );
    expect(r.value.firmware.every((f) => f.source === 'NODES_INFO')).toBe(true);
  });
});

describe('checks and their findings', () => {
  it('spells log check names as db_csv sections', () => {
    expect(checkId('FW Check')).toBe('FW_CHECK');
    expect(checkId(' Duplicated Node Description detection')).toBe('DUPLICATED_NODE_DESCRIPTION_DETECTION');
    expect(checkId('Ports counters Difference Check (during run)')).toBe(
      'PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)',
    );
  });

  it('lists the checks of the real runs: which found something, which were skipped', async () => {
    const a = readRunDir(runA).value.toolChecks!;
    const of = (checks: typeof a, id: string) => checks.find((c) => c.check === id)?.result;
    expect(of(a, 'FW_CHECK')).toBe('warnings');
    expect(of(a, 'DUPLICATED_NODE_DESCRIPTION_DETECTION')).toBe('warnings');
    expect(of(a, 'VS_CAPABILITY_GMP')).toBe('warnings');
    expect(of(a, 'PORT_HIERARCHY_INFO')).toBe('warnings');
    expect(of(a, 'LINKS_SPEED_CHECK')).toBe('ok');
    expect(of(a, 'DUPLICATED_GUIDS_DETECTION')).toBe('ok');
    const b = readRunDir(runB).value.toolChecks!;
    expect(of(b, 'DUPLICATED_NODE_DESCRIPTION_DETECTION')).toBe('skipped');
    expect(of(b, 'FW_CHECK')).toBeUndefined();
    expect(of(b, 'VS_CAPABILITY_GMP')).toBe('warnings');
  });

  it('counts a check with a db_csv section as run even without a log', () => {
    const db = parseDbCsv(real(runA, 'ibdiagnet2.db_csv')).value;
    expect(buildChecks(db, undefined)).toEqual([
      { check: 'VS_CAPABILITY_GMP', result: 'warnings' },
      { check: 'DUPLICATED_NODE_DESCRIPTION_DETECTION', result: 'warnings' },
      { check: 'PORT_HIERARCHY_INFO', result: 'warnings' },
      { check: 'FW_CHECK', result: 'warnings' },
    ]);
  });

  it('reads a check section whose name has brackets, as ibdiagnet writes the counter-difference check', () => {
    const text = [
      'START_ERRORS_PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)',
      'Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary',
      'PORT,0xfc6a1c030091cf00,0xfc6a1c030091cf00,27,PM_COUNTER_INCREASED,"symbol_error_counter ' +
        'increased during the run"',
      'END_ERRORS_PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)',
      '',
    ].join('\n');
    const db = parseDbCsv(text).value;
    expect(buildChecks(db, undefined)).toEqual([
      { check: 'PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)', result: 'errors' },
    ]);
    expect(buildFindings(db, undefined)).toEqual([
      {
        severity: 'error',
        check: 'PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)',
        scope: 'PORT',
        nodeGuid: '0xfc6a1c030091cf00',
        port: { nodeGuid: '0xfc6a1c030091cf00', portNum: 27 },
        code: 'PM_COUNTER_INCREASED',
        text: 'symbol_error_counter increased during the run',
      },
    ]);
  });

  it('files a log-only message under the check whose result line it follows', () => {
    const log = parseIbdiagnetLog(fixture('speed-width-mismatch.good.log')).value;
    expect(buildFindings(undefined, log).map((f) => [f.check, f.code ?? null])).toEqual([
      ['PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)', 'COUNTER_INCREASED'],
      ['PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)', null],
      ['LINKS_SPEED_CHECK', 'LINK_SPEED_MISMATCH'],
      ['LINKS_WIDTH_CHECK', 'LINK_WIDTH_MISMATCH'],
    ]);
  });
});
