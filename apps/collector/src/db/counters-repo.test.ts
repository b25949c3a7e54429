import { describe, expect, it } from 'vitest';
import { tableFromPortCounters, type FabricNode, type FabricPort } from '@ibwatch/fabric';
import { openDb } from './open-db.ts';
import { createTopologyRepo } from './topology-repo.ts';
import { createCountersRepo, lastValues } from './counters-repo.ts';

const SW = '0xa000000000000001';
const nodes: FabricNode[] = [{ guid: SW, type: 'switch', description: 'leaf-01', numPorts: 4 }];

describe('counter_last rows', () => {
  it('keep every value exactly: 0, small, past the small-text table, past 2^32 and 2^63, and absent cells', () => {
    const db = openDb(':memory:');
    const ports: FabricPort[] = [1, 2, 3, 4].map((portNum) => ({ nodeGuid: SW, portNum, state: 'Active' }));
    db.transaction(() => createTopologyRepo(db).ingest(1, 1000, nodes, ports, [], true))();
    const values: Record<string, bigint>[] = [
      { SymbolErrorCounter: 0n, PortRcvErrors: 0n, PortXmitWait: 0n },
      { SymbolErrorCounter: 7n, PortRcvErrors: 1023n, PortXmitWait: 1024n },
      { SymbolErrorCounter: 65_535n, PortRcvErrors: 2n ** 32n, PortXmitWait: 2n ** 64n - 1n },
      { SymbolErrorCounter: 4_294_967_295n, PortXmitWait: 2n ** 32n + 5n },
    ];
    const table = tableFromPortCounters(values.map((counters, i) => ({ nodeGuid: SW, portNum: i + 1, counters })));
    const repo = createCountersRepo(db);
    db.transaction(() => repo.storeLastRows(2000, 1, table.columns, [1, 2, 3, 4], [0, 1, 2, 3]))();
    const back = [...repo.iterateLast()].map((r) => [r.portNum, lastValues(r.vals, r.layout)]);
    expect(back).toEqual(
      values.map((v, i) => [i + 1, Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x.toString()]))]),
    );
    // The absent cell is an empty field between its neighbours' commas.
    expect([...repo.iterateLast()][3]!.vals).toBe(
      table.columns
        .map((c) => ({ SymbolErrorCounter: '4294967295', PortXmitWait: '4294967301' })[c.name] ?? '')
        .join(','),
    );
  });
});
