import { describe, expect, it } from 'vitest';
import { tableFromPortCounters, tableToPortCounters, type PortCounters } from '@ibwatch/fabric';
import { mergePmSweep } from './pm-sweep.ts';

const SW = '0x0000000000000a01';
const CA = '0x0000000000000b01';
const pc = (nodeGuid: string, portNum: number, counters: Record<string, bigint>): PortCounters => ({
  nodeGuid,
  portNum,
  counters,
});

describe('mergePmSweep', () => {
  const data = [
    pc(SW, 0, { PortXmitData: 1n }), // management port: dropped
    pc(SW, 1, { PortXmitData: 10n, PortRcvData: 11n }),
    pc(SW, 2, { PortXmitData: 20n, PortRcvData: 21n }),
    pc(CA, 1, { PortXmitData: 30n, PortRcvData: 31n }),
  ];

  it('zero-fills the error-mode counters, lets error-mode values win and appends ports only error mode printed', () => {
    const errors = [
      pc(SW, 2, { SymbolErrorCounter: 7n, PortXmitData: 22n }),
      pc(SW, 0, { SymbolErrorCounter: 1n }),
      pc('0x0000000000000c01', 3, { PortRcvErrors: 2n }),
    ];
    const merged = tableToPortCounters(
      mergePmSweep(tableFromPortCounters(data), tableFromPortCounters(errors), ['SymbolErrorCounter', 'PortRcvErrors']),
    );
    expect(merged).toEqual([
      pc(SW, 1, { PortXmitData: 10n, PortRcvData: 11n, SymbolErrorCounter: 0n, PortRcvErrors: 0n }),
      pc(SW, 2, { PortXmitData: 22n, PortRcvData: 21n, SymbolErrorCounter: 7n, PortRcvErrors: 0n }),
      pc(CA, 1, { PortXmitData: 30n, PortRcvData: 31n, SymbolErrorCounter: 0n, PortRcvErrors: 0n }),
      pc('0x0000000000000c01', 3, { PortRcvErrors: 2n }),
    ]);
  });

  it('finds a port whose node rows are not consecutive', () => {
    const scattered = [
      pc(SW, 1, { PortXmitData: 1n }),
      pc(CA, 1, { PortXmitData: 2n }),
      pc(SW, 5, { PortXmitData: 3n }),
    ];
    const merged = tableToPortCounters(
      mergePmSweep(tableFromPortCounters(scattered), tableFromPortCounters([pc(SW, 5, { SymbolErrorCounter: 4n })]), [
        'SymbolErrorCounter',
      ]),
    );
    expect(merged.map((p) => [p.portNum, p.counters.SymbolErrorCounter])).toEqual([
      [1, 0n],
      [1, 0n],
      [5, 4n],
    ]);
    expect(merged).toHaveLength(3);
  });
});
