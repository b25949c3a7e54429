import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cellValue, columnIndex, tableRow, tableToPortCounters } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { parseError } from '../common/parse-error.test-helper.ts';
import { parseDbCsv } from './db-csv.ts';
import type { DbCsvData } from './db-csv-types.ts';
import { preferredCounter } from './counters.ts';
import { excerpt, fixture, fixturesDir, real, runA, runB } from './fixtures.test-helper.ts';

/*
 * Expected figures of the real runs were computed independently of this parser with
 *   awk -F, '/^START_PM_INFO/{f=1;getline;for(i=1;i<=NF;i++)h[$i]=i;next} /^END_PM_INFO/{f=0}
 *            f{n++; if($h["LinkDownedCounter"]>0)ld++} END{print n, ld}' ibdiagnet2.db_csv
 * (→ 542 264) and a 20-line Python csv.reader script over the START_/END_ blocks (row counts:
 * NODES 272 = 263 CA + 9 switches, PORTS 551, LINKS 271, PM_INFO 542, PM_DELTA 542, SM_INFO 1,
 * TEMP_SENSING 272; INDEX_TABLE `Rows` agrees).
 */
const a = parseDbCsv(real(runA, 'ibdiagnet2.db_csv'), { file: 'ibdiagnet2.db_csv' });
const b = parseDbCsv(real(runB, 'ibdiagnet2.db_csv'));
/** Row of a port in PM_INFO. */
const pmRow = (d: DbCsvData, guid: string, port: number) =>
  d.pmInfo.nodeGuids.findIndex((g, r) => g === guid && d.pmInfo.portNums[r] === port);
const pmOf = (d: DbCsvData, guid: string, port: number) => tableRow(d.pmInfo, pmRow(d, guid, port));
/** PM_INFO as records, for filters over every port. */
const pmList = (d: DbCsvData) => tableToPortCounters(d.pmInfo);
const portOf = (d: DbCsvData, guid: string, port: number) =>
  d.ports.find((p) => p.nodeGuid === guid && p.portNum === port)!;

describe('parseDbCsv() on the real ndr-fat-tree-a run', () => {
  it('counts nodes, ports, links, PM rows, SMs and temperatures without warnings', () => {
    const v = a.value;
    expect(a.warnings).toEqual([]);
    expect(v.nodes).toHaveLength(272);
    expect(v.nodes.filter((n) => n.type === 'switch')).toHaveLength(9);
    expect(v.nodes.filter((n) => n.type === 'ca')).toHaveLength(263);
    expect(v.ports).toHaveLength(551);
    expect(v.links).toHaveLength(271);
    expect(v.pmInfo.rows).toBe(542);
    expect(v.pmDelta.rows).toBe(542);
    expect(v.temperatures).toHaveLength(272);
    expect(v.sections).toHaveLength(34);
    expect(v.runTimestamp).toBe('2025-03-31 23:43:18 UTC +0000');
    expect(v.runInfo['IBDIAGNET_Version']).toBe('IBDIAGNET 2.10.0.MLNX20220720.cd746c3');
  });

  it('reads the master SM with its priority, state and activity count', () => {
    expect(a.value.sms).toEqual([
      {
        guid: '0xb0cf0e0300d33fc0',
        nodeGuid: '0xb0cf0e0300d33fc0',
        portGuid: '0xb0cf0e0300d33fc0',
        portNum: 0,
        priority: 12,
        state: 'MASTER',
        activityCount: 4202301n,
      },
    ]);
  });

  it('decodes node records, quoted NodeDesc with ; and : included', () => {
    expect(a.value.nodes[0]).toEqual({
      guid: '0xb0cf0e0300d33fc0',
      type: 'switch',
      description: 'MF0;ib-switch-sequoia:MQM9700/U1',
      numPorts: 65,
      systemImageGuid: '0xb0cf0e0300d33fc0',
      vendorId: 713,
      deviceId: 54002,
    });
    const an = a.value.nodes.find((n) => n.guid === '0xfc6a1c030091f608')!;
    expect(an).toMatchObject({ type: 'ca', deviceId: 53001, systemImageGuid: '0xfc6a1c030091f600' });
  });

  it('decodes state, widths and packed speeds of a switch port and an HCA port', () => {
    expect(portOf(a.value, '0xb0cf0e0300d33fc0', 1)).toEqual({
      nodeGuid: '0xb0cf0e0300d33fc0',
      portNum: 1,
      portGuid: '0xb0cf0e0300d33fc0',
      lid: 0,
      state: 'Active',
      physState: 'LinkUp',
      widthActive: '4X',
      speedActive: 'NDR',
      widthEnabled: ['1X', '2X', '4X'],
      widthSupported: ['1X', '2X', '4X'],
      speedEnabled: ['SDR', 'QDR', 'FDR', 'EDR', 'HDR', 'NDR'],
      speedSupported: ['SDR', 'QDR', 'FDR', 'EDR', 'HDR', 'NDR'],
    });
    // `0x5c25730300c06f60,...,1,...,LID 156,...,LinkSpeedEn 3841,LinkSpeedActv 2048,...`
    expect(portOf(a.value, '0x5c25730300c06f60', 1)).toMatchObject({
      lid: 156,
      widthActive: '4X',
      speedActive: 'NDR',
      speedEnabled: ['SDR', 'FDR', 'EDR', 'HDR', 'NDR'],
    });
    // Switch port 0 of the managed spine: LinkSpeedActv=1 (SDR, management port), LID 180.
    expect(portOf(a.value, '0xb0cf0e0300d33fc0', 0)).toMatchObject({ lid: 180, speedActive: 'SDR', state: 'Active' });
    // Port 0 of unmanaged leaves reads PortPhyState/PortState 0/0.
    expect(portOf(a.value, '0xfc6a1c030091cf00', 0)).toMatchObject({ state: 'Unknown', physState: 'NoStateChange' });
  });

  it('keeps classic and 64-bit counters under their own names, as bigint', () => {
    const spine1 = pmOf(a.value, '0xb0cf0e0300d33fc0', 1);
    expect(spine1.counters.PortXmitData).toBe(4294967295n);
    expect(spine1.counters.PortXmitDataExtended).toBe(299195507523n);
    expect(spine1.counters.PortXmitWait).toBe(4294967295n);
    expect(spine1.counters.PortXmitWaitExt).toBe(9463628588n);
    // `-1` = not supported: PortLoopingErrors on every port.
    expect('PortLoopingErrors' in spine1.counters).toBe(false);
    expect(pmOf(a.value, '0xb0cf0e0300d33fc0', 2).counters.PortRcvSwitchRelayErrors).toBe(158n);
    expect(preferredCounter(spine1, 'PortXmitData')).toBe(299195507523n);
    expect(preferredCounter(a.value.pmInfo, pmRow(a.value, '0xb0cf0e0300d33fc0', 1), 'PortXmitData')).toBe(
      299195507523n,
    );
  });

  it('gives the counters as a table: one row per port, columns in header order, values exact', () => {
    const t = a.value.pmInfo;
    expect(t.columns[0]!.name).toBe('LinkDownedCounter');
    expect(t.columns.map((c) => c.name)).toContain('PortXmitDataExtended');
    const col = t.columns[columnIndex(t).get('PortXmitDataExtended')!]!;
    expect(cellValue(col, pmRow(a.value, '0xb0cf0e0300d33fc0', 1))).toBe(299195507523n);
    // `-1` cells (PortLoopingErrors) read absent in every row.
    const looping = t.columns[columnIndex(t).get('PortLoopingErrors')!]!;
    expect(Array.from({ length: t.rows }, (_, r) => cellValue(looping, r)).every((v) => v === undefined)).toBe(true);
  });

  it('finds the five HCA ports whose SymbolErrorCounter is stuck at 65535 while the 64-bit twin reads 0', () => {
    const stuck = pmList(a.value).filter((p) => p.counters.SymbolErrorCounter === 65535n);
    expect(stuck.map((p) => p.nodeGuid).sort()).toEqual([
      '0x5c25730300c09c68',
      '0x5c25730300e66b0e',
      '0x5c25730300e6a04e',
      '0x5c25730300f3df50',
      '0xc470bd0300100612',
    ]);
    const types = new Map(a.value.nodes.map((n) => [n.guid, n.type]));
    expect(stuck.every((p) => types.get(p.nodeGuid) === 'ca' && p.counters.SymbolErrorCounterExt === 0n)).toBe(true);
    expect(stuck.every((p) => preferredCounter(p, 'SymbolErrorCounter') === 0n)).toBe(true);
    expect(
      stuck.every(
        (p) => preferredCounter(a.value.pmInfo, pmRow(a.value, p.nodeGuid, p.portNum), 'SymbolErrorCounter') === 0n,
      ),
    ).toBe(true);
  });

  it('counts 264 of 542 ports with LinkDownedCounter > 0 (263 by the 64-bit twin)', () => {
    expect(pmList(a.value).filter((p) => p.counters.LinkDownedCounter! > 0n)).toHaveLength(264);
    expect(pmList(a.value).filter((p) => (p.counters.LinkDownedCounterExt ?? 0n) > 0n)).toHaveLength(263);
    // The odd one: classic 55, Ext 0 (is-north-7-compute-27 mlx5_11).
    const odd = pmOf(a.value, '0x5c25730300f3df50', 1);
    expect([odd.counters.LinkDownedCounter, odd.counters.LinkDownedCounterExt]).toEqual([55n, 0n]);
  });

  it('reads PM_DELTA and drops the 0xfffffffffffffffe "unsupported" sentinel', () => {
    const d = tableToPortCounters(a.value.pmDelta).find((p) => p.nodeGuid === '0xb0cf0e0300d33fc0' && p.portNum === 1)!;
    expect(d.counters.PortXmitDataExtended).toBe(21096n);
    expect(d.counters.PortXmitPkts).toBe(293n);
    expect('retransmission_per_sec' in d.counters).toBe(false);
  });

  it('reads all 24 WARNINGS_* rows with scope, code and port', () => {
    const f = a.value.findings;
    expect(f).toHaveLength(24);
    expect(f.filter((x) => x.check === 'FW_CHECK')).toHaveLength(7);
    expect(f.find((x) => x.code === 'PORT_HIERARCHY_MISSING')).toMatchObject({
      scope: 'PORT',
      port: { nodeGuid: '0xfc6a1c030091cf00', portNum: 65 },
      severity: 'warning',
      line: 3390,
    });
    expect(a.value.temperatures.find((t) => t.nodeGuid === '0xb0cf0e0300d33fc0')?.temperatureC).toBe(46);
  });
});

describe('parseDbCsv() on the real ndr-fat-tree-b run (--skip pm,...)', () => {
  it('has the same topology, no PM sections and a lower ActCount', () => {
    expect(b.warnings).toEqual([]);
    expect([b.value.nodes.length, b.value.ports.length, b.value.links.length]).toEqual([272, 551, 271]);
    expect(b.value.pmInfo.rows).toBe(0);
    expect(b.value.sms[0]).toMatchObject({ priority: 12, state: 'MASTER', activityCount: 19231n });
    expect(b.value.runTimestamp).toBe('2025-03-15 22:32:20 UTC +0000');
    expect(b.value.sections.map((s) => s.name)).not.toContain('PM_INFO');
  });
});

describe('parseDbCsv() on the trimmed excerpt', () => {
  it('parses the annotated sample once its annotation lines are stripped', () => {
    const r = parseDbCsv(excerpt('ibdiagnet2.db_csv.sample'));
    expect(r.value.runTimestamp).toBe('2025-03-31 23:43:18 UTC +0000');
    expect(r.value.nodes.length).toBeGreaterThan(0);
    expect(r.value.sms[0].priority).toBe(12);
  });
});
