import { readdirSync, readFileSync } from 'node:fs';
import { cellValue, columnIndex, tableToPortCounters, type CounterTable } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { ibqePortCounters, parseIbqueryerrors } from './ibqueryerrors.ts';
import { ibqueryerrorsTable } from './ibqueryerrors-table.ts';
import { GuidTable } from '../common/guids.ts';
import { fixture } from './fixture.test-helper.ts';
import { VARIANTS } from './ibqueryerrors-variants.test-helper.ts';

/** Every ibqueryerrors capture, and every bad input the diags parsers are tested with. */
const FILES = readdirSync(new URL('../../fixtures/diags/', import.meta.url))
  .filter((f) => /ibqueryerrors/.test(f) || f.endsWith('.bad.txt'))
  .sort();

/** The dgx-0009 HCA of the lab: error mode prints its port GUID, node GUID + 1. */
const PORT_TO_NODE = new Map([['0xb83fd20300002091', '0xb83fd20300002090']]);

/** What the record path gives, or the error it throws. */
function viaRecords(text: string, file: string) {
  try {
    const r = parseIbqueryerrors(text, { file });
    const { counters, unresolved } = ibqePortCounters(r.value.ports, PORT_TO_NODE);
    return {
      counters,
      unresolved: unresolved.length,
      mode: r.value.mode,
      summary: r.value.summary,
      warnings: r.warnings,
    };
  } catch (e) {
    return { error: e };
  }
}

function viaTable(text: string | Uint8Array, file: string) {
  try {
    const r = ibqueryerrorsTable(text, { file, portToNode: PORT_TO_NODE });
    const { table, unresolved, mode, summary } = r.value;
    return { counters: tableToPortCounters(table), unresolved, mode, summary, warnings: r.warnings };
  } catch (e) {
    return { error: e };
  }
}

const cell = (t: CounterTable, guid: string, port: number, name: string): bigint | undefined => {
  const row = t.nodeGuids.findIndex((g, r) => g === guid && t.portNums[r] === port);
  const col = columnIndex(t).get(name);
  return row < 0 || col === undefined ? undefined : cellValue(t.columns[col]!, row);
};

describe('ibqueryerrorsTable() gives what ibqePortCounters(parseIbqueryerrors()) gives', () => {
  it('covers the captures', () => {
    expect(FILES).toContain('lab-ibqueryerrors-counters.txt');
    expect(FILES).toContain('sample-ibqueryerrors.txt');
    expect(FILES.filter((f) => f.endsWith('.bad.txt')).length).toBeGreaterThanOrEqual(5);
  });

  for (const file of FILES) {
    it(`on ${file}: same counters, unresolved ports, summary and warnings, or the same ParseError`, () => {
      const text = fixture(`diags/${file}`);
      const want = viaRecords(text, file);
      const got = viaTable(text, file);
      if ('error' in want) {
        expect(want.error).toBeInstanceOf(ParseError);
        expect(got).toHaveProperty('error');
        const e = (got as { error: ParseError }).error;
        const w = want.error as ParseError;
        expect(e).toBeInstanceOf(ParseError);
        expect({ format: e.format, file: e.file, line: e.line, text: e.text, message: e.message }).toEqual({
          format: w.format,
          file: w.file,
          line: w.line,
          text: w.text,
          message: w.message,
        });
        return;
      }
      expect(got).toEqual(want);
      // CRLF (a capture copied through Windows) reads the same.
      expect(viaTable(text.replace(/\n/g, '\r\n'), file)).toEqual(want);
    });
  }

  it('on hand-made lines: tab indent, cut items, Link info without a port, footer before Summary', () => {
    const text = [
      '\uFEFFErrors for 0xfc6a1c0300001120 "leaf-r0-02"',
      '\tGUID 0xfc6a1c0300001120 port 3: [PortRcvErrors == 5] [SymbolErrorCounter == 1',
      '   GUID 0xfc6a1c0300001120 port 4: [PortXmitWait == 9 (9.000)] [garbage',
      '       Link info:      8  17[  ] ==( 4X        53.125 Gbps Active/ ' +
        ' LinkUp)==>  0xfc6a1c0300001010      4    3[  ] "spine-01"',
      '##          3 ports checked, 1 ports have errors beyond threshold',
      'Errors for "dgx-0099 mlx5_0"',
      '   GUID 0xb83fd20300009991 port 1: [PortRcvErrors == 2]',
      '   GUID 0xfc6a1c0300001120 port 1: [PortRcvErrors == 2]',
      'something else',
    ].join('\n');
    const want = viaRecords(text, 'hand.txt');
    expect(want).not.toHaveProperty('error');
    expect((want as { warnings: unknown[] }).warnings.length).toBeGreaterThanOrEqual(5);
    expect(viaTable(text, 'hand.txt')).toEqual(want);
  });

  it('on "Errors for" headers of every form, the byte-read ones and those left to the general reader', () => {
    const port = '   GUID 0xfc6a1c0300001120 port 1: [PortRcvErrors == 2]';
    const headers = [
      'Errors for 0xfc6a1c0300001120 "leaf-r0-02"',
      'Errors for "dgx-0099 mlx5_0"',
      'Errors for 0XFC6A1C0300001120 "upper X"',
      'Errors for 0x0000000000000000 "zero"',
      'Errors for 0xfc6a1c03 "short"',
      'Errors for ""',
      'Errors for 0xfc6a1c0300001120 "a "b" c"',
      'Errors for 0xfc6a1c0300001120 "trailing" ',
      'Errors for 0xfc6a1c0300001120 "né"',
      'Errors for 0xfc6a1c0300001120 leaf',
      'Errors for 0xfc6a1c03000011zz "not hex"',
      'Errors for ',
      'Data Counters for 0xfc6a1c0300001120 "data"',
    ];
    const text = headers.flatMap((h) => [h, port]).join('\n');
    const want = viaRecords(text, 'headers.txt');
    expect(want).not.toHaveProperty('error');
    expect(viaTable(text, 'headers.txt')).toEqual(want);
    expect(viaTable(Buffer.from(text), 'headers.txt')).toEqual(want);
    expect((want as { unresolved: number }).unresolved).toBeGreaterThan(0);
  });

  it('throws on an invalid GUID naming line and text, as the record parser does', () => {
    const text = 'Errors for "x"\n   GUID 0xZZ12 port 1: [PortRcvErrors == 7]\n';
    expect(() => ibqueryerrorsTable(text)).toThrowError(
      /ibqueryerrors:2: invalid GUID "0xZZ12": "   GUID 0xZZ12 port 1/,
    );
  });
});

describe('ibqueryerrorsTable() from bytes (the collector hands over stdout as a Buffer)', () => {
  for (const file of FILES) {
    it(`on ${file}: what the record parser gives for the decoded text, in every variant`, () => {
      for (const [name, variant] of VARIANTS) {
        const bytes = variant(readFileSync(new URL(`../../fixtures/diags/${file}`, import.meta.url)));
        const want = viaRecords(bytes.toString('utf8'), file);
        const got = viaTable(bytes, file);
        if ('error' in want) {
          const e = (got as { error: ParseError }).error;
          const w = want.error as ParseError;
          expect(e, name).toBeInstanceOf(ParseError);
          expect({ line: e.line, text: e.text, message: e.message }, name).toEqual({
            line: w.line,
            text: w.text,
            message: w.message,
          });
        } else expect(got, name).toEqual(want);
      }
    });
  }

  it('reads a port line cut inside its human-readable suffix (the last line of a killed run)', () => {
    const text = 'Data Counters for 0x1 "n"\n   GUID 0x1 port 1: [PortXmitData == 46728 (182.5';
    expect(viaTable(Buffer.from(text), 'cut.txt')).toEqual(viaRecords(text, 'cut.txt'));
  });

  it('reads a Uint8Array that is not a Buffer', () => {
    const bytes = readFileSync(new URL('../../fixtures/diags/lab-ibqueryerrors-counters.txt', import.meta.url));
    expect(viaTable(new Uint8Array(bytes), 'c.txt')).toEqual(viaTable(bytes, 'c.txt'));
  });
});

describe('ibqueryerrorsTable() values', () => {
  it('reads the lab --counters capture: 248 rows, data counters in 4-byte words, node GUIDs', () => {
    const { value, warnings } = ibqueryerrorsTable(fixture('diags/lab-ibqueryerrors-counters.txt'));
    expect(warnings).toEqual([]);
    expect(value.mode).toBe('counters');
    expect(value.table.rows).toBe(248);
    expect(value.unresolved).toBe(0);
    // `   GUID 0xb83fd20300002200 port 1: [PortXmitData == 46728 (182.531KB)] ...`
    expect(cell(value.table, '0xb83fd20300002200', 1, 'PortXmitData')).toBe(46728n);
    expect(cell(value.table, '0xb83fd20300002200', 1, 'PortMulticastRcvPkts')).toBe(0n);
  });

  it('keeps a data counter beyond 2^53 exact', () => {
    const { value } = ibqueryerrorsTable(fixture('diags/lab-ibqueryerrors-counters.txt'));
    const rec = viaRecords(fixture('diags/lab-ibqueryerrors-counters.txt'), 'c.txt') as {
      counters: { nodeGuid: string; portNum: number; counters: Record<string, bigint> }[];
    };
    const big = rec.counters.find((p) => p.counters.PortXmitData! > 9876543210123n)!;
    expect(cell(value.table, big.nodeGuid, big.portNum, 'PortXmitData')).toBe(big.counters.PortXmitData);
    const t = ibqueryerrorsTable(
      'Data Counters for 0x1 "n"\n   GUID 0x1 port 1: [PortXmitData == ' +
        '18446744073709551614 (big)] [PortRcvData == 9007199254740993]\n',
    ).value.table;
    expect(cell(t, '0x0000000000000001', 1, 'PortXmitData')).toBe(18446744073709551614n);
    expect(cell(t, '0x0000000000000001', 1, 'PortRcvData')).toBe(9007199254740993n);
  });

  it('reads the real 2021 sample: saturated SymbolErrorCounter, short GUIDs, port ALL dropped', () => {
    // `   GUID 0x2c903006e29b0 port 5: [SymbolErrorCounter == 65535] [LinkErrorRecoveryCounter == 8] ...`
    const { value } = ibqueryerrorsTable(fixture('diags/sample-ibqueryerrors.txt'));
    expect(cell(value.table, '0x0002c903006e29b0', 5, 'SymbolErrorCounter')).toBe(65535n);
    expect(cell(value.table, '0x0002c903006e29b0', 5, 'PortXmitWait')).toBe(84704351n);
    expect(value.table.portNums).not.toContain(255);
    // Four HCAs print port GUIDs under a header without node GUID: no map, no rows.
    expect(value.unresolved).toBe(5);
    expect(value.table.rows).toBe(9);
  });

  it('resolves CA port GUIDs of error mode through portToNode', () => {
    const { value } = ibqueryerrorsTable(fixture('diags/lab-ibqueryerrors.txt'), { portToNode: PORT_TO_NODE });
    // `Errors for "dgx-0009 mlx5_0"` / `   GUID 0xb83fd20300002091 port 1: [PortRcvErrors == 7]`
    expect(cell(value.table, '0xb83fd20300002090', 1, 'PortRcvErrors')).toBe(7n);
    expect(cell(value.table, '0xfc6a1c0300001120', 17, 'SymbolErrorCounter')).toBe(120n);
    expect(value.unresolved).toBe(1);
  });

  it('counts a value beyond 2^64 as an item not understood', () => {
    const r = ibqueryerrorsTable(
      'Data Counters for 0x1 "n"\n   GUID 0x1 port 1: [PortXmitData == ' +
        '18446744073709551616] [PortRcvData == 3]\n## Summary: 1 nodes checked, 0 bad nodes found\n',
    );
    expect(cell(r.value.table, '0x0000000000000001', 1, 'PortRcvData')).toBe(3n);
    expect(cell(r.value.table, '0x0000000000000001', 1, 'PortXmitData')).toBeUndefined();
    expect(r.warnings.map((w) => [w.line, w.message.slice(0, 40)])).toEqual([
      [2, '1 counter item(s) not understood (output'],
    ]);
  });
});

describe('ibqueryerrorsTable() with a GUID table kept from sweep to sweep', () => {
  it('reads each GUID into the same string every sweep, with the same result as a fresh table', () => {
    const counters = fixture('diags/lab-ibqueryerrors-counters.txt');
    const errors = fixture('diags/lab-ibqueryerrors-data.txt');
    const guids = new GuidTable();
    const opts = { portToNode: PORT_TO_NODE, guids };
    const first = ibqueryerrorsTable(Buffer.from(counters), opts).value.table;
    const held = guids.count;
    expect(held).toBeGreaterThan(10);
    const between = ibqueryerrorsTable(Buffer.from(errors), opts).value;
    expect(between).toEqual(ibqueryerrorsTable(Buffer.from(errors), { portToNode: PORT_TO_NODE }).value);
    const known = guids.count;
    expect(known).toBeGreaterThanOrEqual(held);
    const second = ibqueryerrorsTable(Buffer.from(counters), opts).value.table;
    expect(tableToPortCounters(second)).toEqual(tableToPortCounters(first));
    // Every GUID of the second sweep came out of the table: none was made again.
    expect(guids.count).toBe(known);
  });
});
