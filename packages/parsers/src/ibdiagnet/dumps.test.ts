import { tableToPortCounters } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { parseCables, toCableInfo } from './cables.ts';
import { parseDbCsv } from './db-csv.ts';
import { parseLst } from './lst.ts';
import { parseNetDump } from './net-dump.ts';
import { parsePm } from './pm.ts';
import { parseSm } from './sm.ts';
import { parseError } from '../common/parse-error.test-helper.ts';
import { excerpt, fixture, real, runA, runB } from './fixtures.test-helper.ts';

/*
 * Independent counts (ndr-fat-tree-a): `grep -c '^"' ibdiagnet2.net_dump` = 9 switch blocks,
 * `grep -c ' : DOWN ' ibdiagnet2.net_dump` = 306, 9 × 65 = 585 port rows;
 * `grep -c '^Port=' ibdiagnet2.pm` = 542; `grep -c '^{' ibdiagnet2.lst` = 271;
 * `grep -c '^Port=' ibdiagnet2.cables` = 510.
 */
describe('parseNetDump()', () => {
  const nd = parseNetDump(real(runA, 'ibdiagnet2.net_dump'));

  it('reads every switch block of the real run, DOWN ports included', () => {
    expect(nd.warnings).toEqual([]);
    expect(nd.value.switches).toHaveLength(9);
    const ports = nd.value.switches.flatMap((s) => s.ports);
    expect(ports).toHaveLength(585);
    expect(ports.filter((p) => p.state === 'Down')).toHaveLength(306);
    expect(nd.value.header.runningTimestamp).toBe('2025-03-31 23:43:18 UTC +0000');
  });

  it('decodes an active row and a down row by column name', () => {
    const leaf = nd.value.switches.find((s) => s.guid === '0xb0cf0e0300e5b940')!;
    expect(leaf).toMatchObject({ description: 'Quantum-2 Mellanox Technologies', vendor: 'Mellanox', lid: 24 });
    expect(leaf.ports[0]).toEqual({
      portNum: 1,
      label: '1/1/1',
      state: 'Active',
      physState: 'LinkUp',
      mtu: 5,
      width: '4X',
      speed: 'NDR',
      fec: 'RS_FEC_544_514',
      neighborGuid: '0x5c25730300c06f60',
      neighborLabel: 'B184D0F0/0/0/1',
      neighborLid: 156,
      neighborDescription: 'is-north-7-compute-1 mlx5_10',
    });
    expect(leaf.ports.find((p) => p.portNum === 33)).toEqual({
      portNum: 33,
      label: '1/17/1',
      state: 'Down',
      physState: 'Polling',
    });
  });

  it('parses the trimmed excerpt (leaf block + spine head)', () => {
    const r = parseNetDump(excerpt('ibdiagnet2.net_dump.sample'));
    expect(r.value.switches.map((s) => s.lid)).toEqual([24, 180]);
  });

  it('warns about a cut row and a missing trailer but keeps the complete rows', () => {
    const r = parseNetDump(fixture('truncated.good.net_dump'));
    expect(r.value.switches[0].ports).toHaveLength(1);
    expect(r.warnings.map((w) => [w.line, w.message])).toEqual([
      [11, 'port row has 7 fields, header has 13'],
      [11, 'no "# File closed at" trailer: file truncated?'],
    ]);
  });

  it('reads port rows from bytes exactly as from decoded lines', () => {
    // The byte path (takeLines) against feed-only parsing of the same lines: the real run, and
    // rows the byte path must leave to feed (tab, non-ASCII, binary, short, blank, CRLF).
    const odd = [
      '"MF0;leaf:MQM9700/U1", Mellanox, 0xb0cf0e0300e5b940, LID 24',
      '  #          : IB# : Sta  : PhysSta    : MTU : LWA     : LSA    ' +
        ' : FEC mode            : Retran : Neighbor Guid      : N#         : NLID : Neighbor Description',
      '  1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100    ' +
        ' : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f60 : B184D0F0/0/0/1 : 156  : "node-1 mlx5_0"',
      '  1/1/2      : 2   : ACT  : LINK UP    : 5   : 4x      : 50     ' +
        ' : N/A                 : NO-RTR : N/A                : 7          : 0x1f : ""',
      '  1/2/1\t    : 3   : ACT  : LINK UP    : 5   : 2x      : 100    ' +
        ' : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f61 : 1          : 157  : "nœud-2: mlx5_1"',
      '  1/2/2      : 4   : DOWN : POLL       : N/A : N/A     : N/A    ' +
        ' : N/A                 : N/A    :                    :            :      :',
      '  1/3/1      : x5  : INIT : LINK UP    : 5   : 4x      : 100    ' +
        ' : RS_FEC_544_514      : NO-RTR : 0xZZ : 9 : 12 : "a:b:c"',
      '  1/3/2      : 6   : ACT',
      '',
      '   ',
      '  1/4/1      : 7   : ARM  : LINK UP    : 5   : 4x      : 200    ' +
        ' : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f62 : 2          : 158  : plain desc ',
      // Non-ASCII from the first byte on.
      'é1/5/1       : 8   : ACT  : LINK UP    : 5   : 4x      : 200    ' +
        ' : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f63 : 3          : 159  : "n"',
    ];
    for (const text of [real(runA, 'ibdiagnet2.net_dump'), odd.join('\n'), odd.join('\r\n')]) {
      const bytes = parseNetDump(Buffer.from(text));
      const lines = parseNetDump(text.split(/\r?\n/));
      expect(bytes).toEqual(lines);
      // `fields: 'ports'`: the same rows, each with only what a port record takes.
      const ports = parseNetDump(Buffer.from(text), { fields: 'ports' });
      expect(parseNetDump(text.split(/\r?\n/), { fields: 'ports' })).toEqual(ports);
      const keep = new Set(['portNum', 'label', 'state', 'physState', 'width', 'speed']);
      const projected = bytes.value.switches.map((sw) => ({
        ...sw,
        ports: sw.ports.map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => keep.has(k)))),
      }));
      expect(ports.value.switches).toEqual(projected);
      expect(ports.warnings).toEqual(bytes.warnings);
    }
    const r = parseNetDump(Buffer.from(odd.join('\n'))).value.switches[0]!;
    expect(r.ports.map((p) => p.portNum)).toEqual([1, 2, 3, 4, 7, 8]);
    expect(r.ports[5]).toMatchObject({ label: 'é1/5/1', neighborDescription: 'n' });
    expect(r.ports[1]).toMatchObject({ neighborLid: 31, neighborDescription: '' });
    expect('fec' in r.ports[1]!).toBe(false);
    expect(r.ports[2]).toMatchObject({ label: '1/2/1', neighborDescription: 'nœud-2: mlx5_1' });
    expect(r.ports[4]).toMatchObject({ state: 'Armed', speed: 'XDR', neighborDescription: 'plain desc' });
  });

  it('rejects an empty file and binary data', () => {
    expect(parseError(() => parseNetDump('')).reason).toBe('empty file');
    expect(parseError(() => parseNetDump('\u0000\u0001\u0002garbage')).reason).toBe('binary data');
  });
});

describe('parsePm()', () => {
  it('gives the same counters as db_csv PM_INFO for every one of the 542 ports', () => {
    const pm = parsePm(real(runA, 'ibdiagnet2.pm'));
    const db = parseDbCsv(real(runA, 'ibdiagnet2.db_csv')).value;
    expect(pm.warnings).toEqual([]);
    expect(pm.value.ports).toHaveLength(542);
    const byKey = new Map(tableToPortCounters(db.pmInfo).map((p) => [`${p.nodeGuid}:${p.portNum}`, p.counters]));
    let compared = 0;
    for (const block of pm.value.ports) {
      const ref = byKey.get(`${block.guid}:${block.portNum}`)!;
      for (const [name, value] of Object.entries(block.counters)) {
        if (name in ref) {
          expect([block.guid, block.portNum, name, value]).toEqual([block.guid, block.portNum, name, ref[name]]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(542 * 45);
  });

  it('reads hex values, maps names to PM_INFO columns and drops NA', () => {
    const r = parsePm(excerpt('ibdiagnet2.pm.sample'));
    const spine2 = r.value.ports[0];
    expect(spine2).toMatchObject({
      guid: '0xb0cf0e0300d33fc0',
      portNum: 2,
      lid: 0xb4,
      deviceId: 54002,
      portName: 'ib-switch-sequoia/U1/P1/1/2',
    });
    expect(spine2.counters.PortRcvSwitchRelayErrors).toBe(158n);
    expect('PortLoopingErrors' in spine2.counters).toBe(false);
  });
});

describe('parseSm()', () => {
  it('reads the master SM of the real runs with its LID and priority', () => {
    for (const dir of [runA, runB]) {
      expect(parseSm(real(dir, 'ibdiagnet2.sm')).value.sms).toEqual([
        { state: 'MASTER', guid: '0xb0cf0e0300d33fc0', portNum: 0, lid: 180, deviceId: 54002, priority: 12 },
      ]);
    }
  });

  it('reads standby groups after the master', () => {
    const r = parseSm(fixture('two-runs/ibdiagnet2.sm'));
    expect(r.value.sms.map((s) => [s.state, s.guid, s.priority, s.lid])).toEqual([
      ['MASTER', '0xb0cf0e0300d33fc0', 12, 180],
      ['STANDBY', '0x5c25730300e6706e', 10, 181],
    ]);
  });
});

describe('parseLst()', () => {
  it('reads the 271 links of the real run with both ends in hex', () => {
    const r = parseLst(real(runA, 'ibdiagnet2.lst'));
    expect(r.warnings).toEqual([]);
    expect(r.value.links).toHaveLength(271);
    expect(r.value.links.every((l) => l.state === 'ACT' && l.width === '4X' && l.speed === 'NDR')).toBe(true);
    expect(r.value.links[0]).toMatchObject({
      a: {
        type: 'ca',
        numPorts: 1,
        nodeGuid: '0x5c257303009ab1c0',
        deviceId: 0x1021,
        lid: 0xb5,
        portNum: 1,
        description: 'is-north-7-compute-12 mlx5_0',
      },
      b: { type: 'switch', numPorts: 65, nodeGuid: '0xfc6a1c030091f9c0', lid: 0xb6, portNum: 12 },
    });
  });

  it('parses the excerpt', () => {
    expect(parseLst(excerpt('ibdiagnet2.lst.sample')).value.links).toHaveLength(22);
  });
});

describe('parseCables()', () => {
  it('reads the 510 cable blocks of the (older) real .cables file', () => {
    const r = parseCables(real(runA, 'ibdiagnet2.cables'));
    expect(r.value.header.runningTimestamp).toBe('2025-03-15 06:54:44 UTC +0000');
    expect(r.value.cables).toHaveLength(510);
    const first = r.value.cables[0];
    expect(toCableInfo(first, first.guid)).toEqual({
      nodeGuid: '0xb0cf0e0300e5b940',
      portNum: 1,
      vendor: 'FS',
      partNumber: 'OSFP-SR8-800G',
      serialNumber: 'G2430283435',
      type: '850 nm VCSEL',
      temperatureC: 58,
    });
    expect(first.fields['Attenuation(5,7,12,25)']).toBe('NA NA NA NA');
  });

  it('drops the 0C that passive copper reports for want of a sensor, keeps its length', () => {
    const r = parseCables(real(runA, 'ibdiagnet2.cables'));
    const copper = r.value.cables
      .filter((c) => c.fields['Type'] === 'Copper cable- unequalized')
      .map((c) => toCableInfo(c, c.guid));
    expect(copper).toHaveLength(198);
    expect(copper.every((c) => c.lengthM === 2 && c.temperatureC === undefined)).toBe(true);
  });
});
