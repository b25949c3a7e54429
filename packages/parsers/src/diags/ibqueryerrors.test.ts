import { describe, expect, it } from 'vitest';
import { ParseError } from '../common/parse-error.ts';
import { ibqePortCounters, parseIbqueryerrors, type IbqePort } from './ibqueryerrors.ts';
import { fixture } from './fixture.test-helper.ts';

const find = (ports: IbqePort[], desc: string, port: number | 'ALL') =>
  ports.find((p) => p.nodeDescription === desc && p.port === port);

describe('parseIbqueryerrors() on the lab capture', () => {
  const { value, warnings } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors.txt'), {
    file: 'lab-ibqueryerrors.txt',
  });

  it('reports the injected counters on the exact ports', () => {
    expect(warnings).toEqual([]);
    expect(value.mode).toBe('errors');
    expect(value.ports).toHaveLength(8);
    expect(find(value.ports, 'leaf-r0-02', 17)?.counters).toEqual({
      SymbolErrorCounter: 120n,
      LinkErrorRecoveryCounter: 3n,
      LinkDownedCounter: 2n,
    });
    expect(find(value.ports, 'dgx-0009 mlx5_0', 1)?.counters).toEqual({ PortRcvErrors: 7n });
    expect(find(value.ports, 'spine-01', 3)?.counters).toEqual({ PortXmitDiscards: 55n });
    expect(find(value.ports, 'leaf-r0-03', 20)?.counters).toEqual({ PortXmitWait: 123456n });
    expect(find(value.ports, 'dgx-0017 mlx5_0', 1)?.counters).toEqual({ VL15Dropped: 4n });
  });

  it('keeps switch GUIDs from the header and CA port GUIDs from the line', () => {
    const sw = find(value.ports, 'spine-01', 'ALL')!;
    expect(sw).toMatchObject({ nodeGuid: '0xfc6a1c0300001010', nodeType: 'switch', guidKind: 'port' });
    const ca = find(value.ports, 'dgx-0009 mlx5_0', 1)!;
    expect(ca.nodeGuid).toBeUndefined();
    expect(ca).toMatchObject({ guid: '0xb83fd20300002091', nodeType: 'ca' });
  });

  it('parses the summary', () => {
    expect(value.summary).toEqual({
      nodesChecked: 38,
      badNodes: 5,
      portsChecked: 248,
      badPorts: 5,
      pmaQueryFailures: 0,
      thresholds: {},
      suppressed: [],
    });
  });

  it('converts to PortCounters, resolving CA port GUIDs through a map', () => {
    const map = new Map([['0xb83fd20300002091', '0xb83fd20300002090']]);
    const { counters, unresolved } = ibqePortCounters(value.ports, map);
    expect(counters.find((c) => c.nodeGuid === '0xb83fd20300002090')).toEqual({
      nodeGuid: '0xb83fd20300002090',
      portNum: 1,
      counters: { PortRcvErrors: 7n },
    });
    expect(unresolved.map((p) => p.nodeDescription)).toEqual(['dgx-0017 mlx5_0']);
  });
});

describe('parseIbqueryerrors() flags', () => {
  it('--data appends data counters (4-byte words) without the human suffix', () => {
    const { value } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-data.txt'));
    expect(find(value.ports, 'spine-01', 3)?.counters).toMatchObject({
      PortXmitDiscards: 55n,
      PortXmitData: 111960n,
      PortRcvPkts: 1584n,
    });
  });

  it('-r attaches the Link info of the port', () => {
    const { value, warnings } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-r.txt'));
    expect(warnings).toEqual([]);
    const p = find(value.ports, 'leaf-r0-02', 17)!;
    expect(p.linkInfo).toMatchObject({
      lid: 8,
      portNum: 17,
      widthActive: '4X',
      speedActive: 'HDR',
      state: 'Active',
      physState: 'LinkUp',
      peer: { lid: 4, portNum: 3, description: 'spine-01', guid: '0xfc6a1c0300001010' },
      couldBe: ['12X'],
    });
  });

  it('--counters lists every port with node GUIDs', () => {
    const { value, warnings } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-counters.txt'));
    expect(warnings).toEqual([]);
    expect(value.mode).toBe('counters');
    expect(value.ports).toHaveLength(248);
    expect(value.summary?.portsChecked).toBe(248);
    const p = find(value.ports, 'leaf-r0-01', 18)!;
    expect(p.counters.PortXmitData).toBeGreaterThan(9876543210123n);
    const ca = find(value.ports, 'dgx-0032 mlx5_0', 1)!;
    expect(ca).toMatchObject({ guid: '0xb83fd20300002200', guidKind: 'node', nodeGuid: '0xb83fd20300002200' });
    const down = find(value.ports, 'spine-02', 36)!;
    expect(down.counters.PortXmitData).toBe(0n);
  });

  it('reports thresholds and hides counters below them', () => {
    const { value } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-thresholds.txt'));
    expect(value.summary?.thresholds).toEqual({ SymbolErrorCounter: 200n, PortXmitWait: 1000000n });
    expect(find(value.ports, 'leaf-r0-02', 17)?.counters).toEqual({
      LinkErrorRecoveryCounter: 3n,
      LinkDownedCounter: 2n,
    });
    expect(find(value.ports, 'leaf-r0-03', 20)).toBeUndefined();
  });

  it('reports suppressed counters', () => {
    const { value } = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-suppress.txt'));
    expect(value.summary?.suppressed).toEqual(['PortXmitWait', 'VL15Dropped']);
    expect(value.summary?.badPorts).toBe(3);
  });

  it('-k -K output parses the same, and the next run is clean', () => {
    expect(parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-k-K.txt')).value.ports).toHaveLength(8);
    const after = parseIbqueryerrors(fixture('diags/lab-ibqueryerrors-after-clear.txt'));
    expect(after.value.ports).toEqual([]);
    expect(after.value.summary?.badPorts).toBe(0);
    expect(after.warnings).toEqual([]);
  });

  it('streams ports through onPort without keeping them', () => {
    const seen: IbqePort[] = [];
    const lines = fixture('diags/lab-ibqueryerrors-counters.txt').split('\n');
    const { value } = parseIbqueryerrors(lines, { onPort: (p) => seen.push(p), keepPorts: false });
    expect(seen).toHaveLength(248);
    expect(value.ports).toEqual([]);
  });
});

describe('parseIbqueryerrors() on the real 2021 sample', () => {
  const { value, warnings } = parseIbqueryerrors(fixture('diags/sample-ibqueryerrors.txt'));
  it('keeps saturated counters and short GUIDs', () => {
    expect(warnings).toEqual([]);
    expect(value.ports).toHaveLength(15); // 14 ports + the switch's port ALL
    expect(find(value.ports, 'MF0;ys23ib4:SX6036/U1', 5)?.counters.SymbolErrorCounter).toBe(65535n);
    expect(find(value.ports, 'server mlx4_0', 1)).toMatchObject({
      guid: '0x0002c9030042dff1',
      counters: { PortXmitWait: 4294967295n },
    });
    expect(value.summary).toMatchObject({ nodesChecked: 4, badNodes: 4, portsChecked: 43, badPorts: 14 });
  });
});

describe('parseIbqueryerrors() on bad input', () => {
  it('throws on empty output', () => {
    expect(() => parseIbqueryerrors(fixture('diags/empty.bad.txt'), { file: 'empty.bad.txt' })).toThrowError(
      /ibqueryerrors:empty.bad.txt: empty output/,
    );
  });

  it('throws on binary garbage with file and line', () => {
    try {
      parseIbqueryerrors(fixture('diags/binary.bad.txt'), { file: 'binary.bad.txt' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      expect(e).toMatchObject({ format: 'ibqueryerrors', file: 'binary.bad.txt', line: 2 });
    }
  });

  it('warns about a truncated output and keeps what parsed', () => {
    const { value, warnings } = parseIbqueryerrors(fixture('diags/ibqueryerrors-truncated.bad.txt'));
    expect(find(value.ports, 'leaf-r0-02', 17)?.counters).toEqual({ SymbolErrorCounter: 120n });
    expect(warnings.map((w) => w.line)).toEqual([10, undefined]);
    expect(warnings[0].message).toMatch(/not understood/);
    expect(warnings[1].message).toMatch(/no "## Summary"/);
  });

  it('parses CRLF output identically', () => {
    const crlf = fixture('diags/lab-ibqueryerrors.txt').replace(/\n/g, '\r\n');
    expect(parseIbqueryerrors(crlf).value).toEqual(parseIbqueryerrors(fixture('diags/lab-ibqueryerrors.txt')).value);
  });

  it('throws on a GUID that is not one, naming line and text', () => {
    expect(() => parseIbqueryerrors('Errors for "x"\n   GUID 0xZZ12 port 1: [PortRcvErrors == 7]\n')).toThrowError(
      /ibqueryerrors:2: invalid GUID "0xZZ12": "   GUID 0xZZ12 port 1/,
    );
  });
});

describe('parseIbqueryerrors() at scale', () => {
  it('streams a synthetic 60k-port --counters output line by line', () => {
    function* lines(): Generator<string> {
      for (let n = 0; n < 1000; n++) {
        const g = `0xfc6a1c03${n.toString(16).padStart(8, '0')}`;
        yield `Data Counters for ${g} "sw-${n}"`;
        for (let p = 1; p <= 60; p++) {
          yield `   GUID ${g} port ${p}: [PortXmitData == ${p * 1000} (3.906KB)] [PortRcvData == 7 (28.000B)] ` +
            '[PortXmitPkts == 1 (1.000)] [PortRcvPkts == 1 (1.000)]';
        }
      }
      yield '';
      yield '## Summary: 1000 nodes checked, 0 bad nodes found';
      yield '##          60000 ports checked, 0 ports have errors beyond threshold';
      yield '## Thresholds: ';
      yield '## Suppressed:';
    }
    let total = 0n;
    const t0 = performance.now();
    const { value, warnings } = parseIbqueryerrors(lines(), {
      keepPorts: false,
      onPort: (p) => (total += p.counters.PortXmitData),
    });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(warnings).toEqual([]);
    expect(value.summary?.portsChecked).toBe(60000);
    expect(total).toBe(1000n * 1830000n);
  });
});

describe('a pasted ibqueryerrors excerpt without its header', () => {
  it('reads the port lines; the node is known only by GUID, and the warning says so', () => {
    const r = parseIbqueryerrors(fixture('diags/sample-ibqueryerrors-excerpt.txt'), { file: 'paste.txt' });
    expect(r.value.ports.map((p) => [p.guid, p.port, p.nodeGuid, p.nodeDescription])).toEqual([
      ['0x0002c903006e29b0', 'ALL', '0x0002c903006e29b0', ''],
      ['0x0002c903006e29b0', 5, undefined, ''],
    ]);
    expect(r.value.ports[1].counters.SymbolErrorCounter).toBe(65535n);
    expect(r.value.ports[0].counters.LinkDownedCounter).toBe(48n);
    expect(r.warnings.map((w) => w.message)).toContain(
      'no "Errors for" header: the node is known only by the GUID on its lines',
    );
    expect(r.warnings[0]).toMatchObject({ file: 'paste.txt', line: 1 });
  });

  it('the one-line excerpt of the issue parses', () => {
    const line = '   GUID 0x0002c90300a1b2c3 port ALL: [LinkDownedCounter == 1] [PortRcvErrors == 5]\n';
    const r = parseIbqueryerrors(line);
    expect(r.value.ports).toEqual([
      {
        nodeDescription: '',
        guid: '0x0002c90300a1b2c3',
        nodeGuid: '0x0002c90300a1b2c3',
        guidKind: 'port',
        port: 'ALL',
        counters: { LinkDownedCounter: 1n, PortRcvErrors: 5n },
      },
    ]);
  });
});
