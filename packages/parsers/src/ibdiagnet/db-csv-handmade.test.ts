/** db_csv on hand-made inputs: line endings, broken sections and rows, odd cells (the real runs: db-csv.test.ts). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tableRow, tableToPortCounters } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { parseError } from '../common/parse-error.test-helper.ts';
import { parseDbCsv } from './db-csv.ts';
import { fixture, fixturesDir } from './fixtures.test-helper.ts';

describe('parseDbCsv() on hand-made inputs', () => {
  it('accepts CRLF line endings with the same result as LF', () => {
    const lf = parseDbCsv(fixture('minimal.good.db_csv'));
    const crlf = parseDbCsv(fixture('crlf.good.db_csv'));
    expect(crlf).toEqual(lf);
    expect(tableRow(crlf.value.pmInfo, 0).counters.PortXmitDataExtended).toBe(299195507523n);
  });

  it('accepts an iterable of lines as well as a string', () => {
    const lines = fixture('minimal.good.db_csv').split('\n');
    expect(parseDbCsv(lines).value).toEqual(parseDbCsv(fixture('minimal.good.db_csv')).value);
  });

  it('reports a section that never ends with file and line', () => {
    const e = parseError(() => parseDbCsv(fixture('truncated-file.bad.db_csv'), { file: 'ibdiagnet2.db_csv' }));
    expect(e.line).toBe(23);
    expect(e.text).toBe('START_PM_INFO');
    expect(e.message).toBe(
      'ibdiagnet2.db_csv:ibdiagnet2.db_csv:23: section PM_INFO never ends ' +
        '(END_PM_INFO missing: file truncated?): "START_PM_INFO"',
    );
  });

  it('reports a file cut in the middle of a row as a truncated section', () => {
    const e = parseError(() => parseDbCsv(fixture('truncated-line.bad.db_csv')));
    expect(e.reason).toMatch(/never ends/);
    expect(e.line).toBe(23);
  });

  it('skips a row cut inside its quotes with a warning and keeps the rest', () => {
    const r = parseDbCsv(fixture('cut-quoted-row.good.db_csv'));
    expect(r.value.nodes.map((n) => n.guid)).toEqual(['0xb0cf0e0300d33fc0']);
    expect(r.warnings).toEqual([
      {
        line: 13,
        file: 'ibdiagnet2.db_csv',
        message: 'NODES row skipped: unterminated quoted field (truncated line?)',
      },
    ]);
  });

  it('skips a row with 5 fields where 9 are expected, naming its line', () => {
    const r = parseDbCsv(fixture('short-row.good.db_csv'));
    expect(r.value.pmInfo.rows).toBe(1);
    expect(r.warnings).toEqual([
      { line: 26, file: 'ibdiagnet2.db_csv', message: 'PM_INFO row skipped: row has 5 fields, header has 9' },
    ]);
  });

  it('reads PORTS and LINKS cells in one pass as a row with a quoted field is read', () => {
    const g = '0xb0cf0e0300d33fc0';
    const ports = [
      `${g},${g},1,0x0,24,2,19,19,2052,3845,3845,5,4,x`,
      `${g},${g},0x2,0x0,0x18,0x2,0x13,19,2052,3845,3845,5,4,x`, // hex cells
      `${g},,3,0x0,,2,19,19,,3845,3845,5,4,x`, // empty cells
      `${g.toUpperCase().replace('0X', '0x')},${g},4,0x0, 25,2,19,19,2052,3845,3845,5,4,x`, // upper-case GUID, space
      `${g},${g},5,0x0,1234567890123456,2,19,19,2052,3845,3845,5,4,x`, // 16 digits
      `garbage,${g},6,0x0,24,2,19,19,2052,3845,3845,5,4,x`,
      `${g},${g},N/A,0x0,24,2,19,19,2052,3845,3845,5,4,x`,
      `${g},${g},8,0x0,24`,
      `${g},${g},9,0x0,24,2,19,19,2052,3845,3845,5,4,x,y`,
    ];
    const links = [`${g},1,0x5c25730300e6706e,0x1`, `${g},2,0x5c25730300e6706e,N/A`, `${g},3,0x5c25730300e6706e`];
    const doc = (rows: string[], linkRows: string[]): string =>
      [
        'START_PORTS',
        'NodeGuid,PortGuid,PortNum,MKey,LID,LinkWidthActv,LinkWidthSup,LinkWidthEn,' +
          'LinkSpeedActv,LinkSpeedEn,LinkSpeedSup,PortPhyState,PortState,Extra',
        ...rows,
        'END_PORTS',
        'START_LINKS',
        'NodeGuid1,PortNum1,NodeGuid2,PortNum2,Extra',
        ...linkRows.map((l) => `${l},z`),
        'END_LINKS',
      ].join('\n');
    const plain = parseDbCsv(doc(ports, links));
    // A field that opens with a quote sends the row to the CsvRow path.
    const quoted = parseDbCsv(
      doc(
        ports.map((r) => r.replace(',0x0,', ',"0x0",')),
        links.map((l) => `"${l.slice(0, 18)}"${l.slice(18)}`),
      ),
    );
    expect(quoted.value.ports).toEqual(plain.value.ports);
    expect(quoted.value.links).toEqual(plain.value.links);
    expect(quoted.warnings).toEqual(plain.warnings);
    const p = plain.value.ports;
    expect(p.map((x) => [x.portNum, x.lid])).toEqual([
      [1, 24],
      [2, 24],
      [3, undefined],
      [4, 25],
      // A 16-digit cell is read whole, and a LID over 16 bits is no LID (a warning below).
      [5, undefined],
    ]);
    expect({ ...p[1], portNum: 1 }).toEqual(p[0]);
    expect(p[2]).toMatchObject({ widthActive: '4X', widthSupported: ['1X', '2X', '4X'] });
    expect(p[2]!.portGuid).toBeUndefined();
    expect(plain.value.links).toEqual([
      { a: { nodeGuid: '0x5c25730300e6706e', portNum: 1 }, b: { nodeGuid: g, portNum: 1 } },
    ]);
    expect(plain.warnings.map((w) => [w.line, w.message])).toEqual([
      [8, 'PORTS row skipped: bad NodeGuid "garbage"'],
      [9, 'PORTS row skipped: bad PortNum "N/A"'],
      [10, 'PORTS row skipped: row has 5 fields, header has 14'],
      [11, 'PORTS row skipped: row has 15 fields, header has 14'],
      [7, 'PORTS column LID: 1 value(s) outside 0..65535 ignored (first: 1234567890123456)'],
      [16, 'LINKS row skipped: bad GUID or port number'],
      [17, 'LINKS row skipped: row has 4 fields, header has 5'],
    ]);
  });

  it('rejects a section none of whose rows can be used', () => {
    const e = parseError(() => parseDbCsv(fixture('all-rows-short.bad.db_csv')));
    expect(e.reason).toMatch(/section PM_INFO unusable/);
    expect(e.line).toBe(25);
  });

  it('rejects a section opened inside another and an END_ without START_', () => {
    const nested = parseError(() => parseDbCsv(fixture('nested-section.bad.db_csv')));
    expect(nested.reason).toBe('START_LINKS inside section NODES (END_NODES missing or sections out of order)');
    expect(nested.line).toBe(14);
    const orphan = parseError(() => parseDbCsv(fixture('end-without-start.bad.db_csv')));
    expect(orphan.reason).toBe('END_PM_INFO without START_PM_INFO');
  });

  it('accepts sections in any order', () => {
    const r = parseDbCsv(fixture('any-section-order.good.db_csv'));
    expect(r.warnings).toEqual([]);
    expect([r.value.nodes.length, r.value.links.length, r.value.pmInfo.rows]).toEqual([2, 1, 1]);
    expect(r.value.runTimestamp).toBe('2025-03-31 23:43:18 UTC +0000');
  });

  it('ignores a duplicated section with a warning naming both lines', () => {
    const r = parseDbCsv(fixture('duplicated-section.good.db_csv'));
    expect(r.value.nodes.map((n) => n.description)).toEqual([
      'MF0;ib-switch-sequoia:MQM9700/U1',
      'is-north-7-compute-1 mlx5_8',
    ]);
    expect(r.warnings).toEqual([
      {
        line: 23,
        file: 'ibdiagnet2.db_csv',
        message: 'section NODES repeated (first at line 10); the repeat is ignored',
      },
    ]);
  });

  it('selects columns by name whatever their order, ignoring unknown columns and sections', () => {
    const r = parseDbCsv(fixture('unknown-columns.good.db_csv'));
    expect(r.warnings).toEqual([]);
    expect(r.value.nodes).toEqual([
      {
        guid: '0xb0cf0e0300d33fc0',
        type: 'switch',
        description: 'spine, with comma',
        numPorts: 65,
        deviceId: 54002,
        vendorId: 713,
      },
    ]);
    expect(r.value.ports[0]).toMatchObject({ portNum: 1, state: 'Active', speedActive: 'NDR', widthActive: '4X' });
    expect(r.value.ports[0].lid).toBeUndefined();
    expect(r.value.sections.find((s) => s.name === 'SOME_FUTURE_SECTION')?.rows).toBe(2);
  });

  it('keeps counters beyond 2^53 and at 2^64 - 1 exact and rejects one beyond 2^64', () => {
    const r = parseDbCsv(fixture('big-counters.good.db_csv'));
    const c = tableRow(r.value.pmInfo, 0).counters;
    expect(c.PortXmitDataExtended).toBe(9007199254740993n);
    // All ones is a value (a saturated counter), not the table's "absent" (issue 14).
    expect(c.SymbolErrorCounterExt).toBe(18446744073709551615n);
    expect('PortXmitWaitExt' in c).toBe(false);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'PM_INFO column PortXmitWaitExt: 1 invalid value(s) skipped (first: "18446744073709551616", exceeds 64 bits)',
    ]);
  });

  it('leaves nothing of a refused PM row in the row that follows it', () => {
    // Refused rows are written into the table before their keys are checked (pm-table.ts):
    // a high half, an absent cell or a hex value of theirs must not show through.
    const text = [
      'START_PM_INFO',
      'NodeGUID,PortGUID,PortNumber,PortXmitDataExtended,SymbolErrorCounter,PortRcvData',
      '0xnot-a-guid,0x0,1,9007199254740993,-1,0xffffffff00000001',
      '0x0000000000000001,0x0,2,0,0,0',
      '0x0000000000000001,0x0,3,18446744073709551000,N/A',
      '0x0000000000000001,0x0,4,0,9,10',
      '0,0x0,0,0,0,0',
      '0x0000000000000002,0x0,0,0,0,0',
      'END_PM_INFO',
    ].join('\n');
    const r = parseDbCsv(text);
    expect(tableToPortCounters(r.value.pmInfo).map((p) => [p.portNum, p.counters])).toEqual([
      [2, { PortXmitDataExtended: 0n, SymbolErrorCounter: 0n, PortRcvData: 0n }],
      [4, { PortXmitDataExtended: 0n, SymbolErrorCounter: 9n, PortRcvData: 10n }],
      // A key cell of `0` is read, not skipped as a zero counter: a 0 GUID is refused, port 0 kept.
      [0, { PortXmitDataExtended: 0n, SymbolErrorCounter: 0n, PortRcvData: 0n }],
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'PM_INFO row skipped: bad NodeGUID "0xnot-a-guid"',
      'PM_INFO row skipped: row has 5 fields, header has 6',
      'PM_INFO row skipped: bad NodeGUID "0"',
    ]);
  });

  it('drops negative and non-numeric counters with one warning per column', () => {
    const r = parseDbCsv(fixture('bad-counters.good.db_csv'));
    const [p1, p2] = tableToPortCounters(r.value.pmInfo);
    expect(p1!.counters).toEqual({ PortXmitWaitExt: 31n });
    expect(p2!.counters).toEqual({
      PortXmitData: 1n,
      PortXmitDataExtended: 2n,
      SymbolErrorCounterExt: 3n,
      PortXmitWaitExt: 4n,
    });
    expect(r.warnings.map((w) => [w.line, w.message])).toEqual([
      [25, 'PM_INFO column LinkDownedCounter: 2 invalid value(s) skipped (first: "-5", negative)'],
      [25, 'PM_INFO column SymbolErrorCounter: 1 invalid value(s) skipped (first: "abc", not a number)'],
      [25, 'PM_INFO column SymbolErrorCounterExt: 1 invalid value(s) skipped (first: "12x", not a number)'],
    ]);
  });

  it('normalises GUIDs written in odd forms and skips an unreadable one', () => {
    const r = parseDbCsv(fixture('odd-guids.good.db_csv'));
    expect(r.value.nodes.map((n) => n.guid)).toEqual([
      '0xb0cf0e0300d33fc0',
      '0x5c25730300e6706e',
      '0x0002c903000e0b72',
      '0x98039b03009fcbd6',
    ]);
    expect(r.warnings).toEqual([
      { line: 12, file: 'ibdiagnet2.db_csv', message: 'NODES row skipped: bad NodeGUID "0xnot-a-guid"' },
    ]);
  });

  it('rejects an empty file', () => {
    expect(parseError(() => parseDbCsv(fixture('empty.bad.db_csv'))).reason).toBe('empty file');
  });

  it('rejects binary garbage on its first line', () => {
    const text = readFileSync(resolve(fixturesDir, 'binary-garbage.bad.db_csv'), 'utf8');
    const e = parseError(() => parseDbCsv(text));
    expect(e.line).toBe(1);
    expect(e.reason).toBe('binary data, not a db_csv');
  });

  it('rejects text that is not a db_csv at all', () => {
    const e = parseError(() => parseDbCsv('<html>502 Bad Gateway</html>\n'));
    expect(e.reason).toBe('expected START_<SECTION> or a # comment');
    expect(e.line).toBe(1);
  });
});
