// A collector process that does nothing but ingest PM sweeps as fast as it can, for the
// kill -9 loop (crash-loop.test.ts). It starts like the server (createContext: open, migrate,
// mark interrupted scans failed), stores a generated fat tree once, then runs PM sweeps through
// the real runPipeline + storePm + CounterBaseline, exactly as the scan service wires them.
//
// Sweep k reports known lifetime totals (see countersAt), so after any number of kills the
// stored deltas of a port must add up to its last stored totals: the first sweep (k = 0) is the
// all-zero baseline, and each restart continues at k = (last stored k) + 1.
//   node --import tsx ingest-driver.ts DB_FILE [GPUS]
import { fatTreeSnapshot, generateFatTree, type PortCounters } from '@ibwatch/fabric';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { runPipeline } from '../../src/scans/pipeline.ts';
import { storeTopology } from '../../src/scans/topology-store.ts';
import { storePm } from '../../src/scans/pm-store.ts';
import { CounterBaseline } from '../../src/scans/counter-baseline.ts';

/**
 * Lifetime totals of port number `i` (by ports.id order) at sweep k: monotonic, known in closed
 * form. As on a real fabric, only some ports count errors (1 in 16) or congestion (1 in 8).
 */
export function countersAt(i: number, k: number): Record<string, bigint> {
  const K = BigInt(k);
  return {
    SymbolErrorCounter: i % 16 === 0 ? BigInt(1 + (i % 3)) * K : 0n,
    PortRcvErrors: i % 16 === 5 ? (K * 2n) / 3n : 0n,
    PortXmitWait: i % 8 === 1 ? K * K * BigInt((i % 7) + 1) : 0n,
    LinkDownedCounter: 0n,
    // Traffic moves on every port every sweep (not stored, but judged like a real sweep's).
    PortXmitData: K * 1000n,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dbFile, gpusArg] = process.argv.slice(2);
  const config = loadConfig({
    IBWATCH_SOURCE: 'import-only',
    IBWATCH_DB: dbFile,
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_LAB_DIR: `${dbFile}.nolab`,
  });
  const { db, names } = createContext(config);
  if ((db.prepare('SELECT COUNT(*) FROM ports').pluck().get() as number) === 0) {
    const t = fatTreeSnapshot(generateFatTree({ gpus: Number(gpusArg ?? 1024) }));
    const row = await runPipeline(
      db,
      'topology',
      'cli',
      async () => ({ data: t, raw: [], toolVersions: {}, warnings: [] }),
      (id, at, c) =>
        storeTopology(db, config, names, id, at, { nodes: c.data.nodes, ports: c.data.ports, links: c.data.links }),
    );
    if (row.status === 'failed') throw new Error(`topology: ${row.error}`);
  }
  const ports = db
    .prepare('SELECT id, node_guid AS g, port_num AS p FROM ports WHERE port_num > 0 ORDER BY id')
    .all() as { id: number; g: string; p: number }[];
  // Each committed PM scan stored exactly one k (k = 0 first): the next k is their count.
  let k = db.prepare("SELECT COUNT(*) FROM scans WHERE kind = 'pm' AND status = 'ok'").pluck().get() as number;
  const baseline = new CounterBaseline(db);
  process.stdout.write(`ready ports=${ports.length} k=${k}\n`);
  for (;;) {
    const sweep: PortCounters[] = ports.map((p, i) => ({ nodeGuid: p.g, portNum: p.p, counters: countersAt(i, k) }));
    const at = Date.now();
    const row = await runPipeline(
      db,
      'pm',
      'schedule',
      async () => ({ data: sweep, raw: [], toolVersions: {}, warnings: [] }),
      (id, when, c) => storePm(db, config, names, baseline, id, when, c.data),
      () => at,
    );
    if (row.status === 'failed') {
      baseline.invalidate();
      process.stdout.write(`failed ${k} ${row.error}\n`);
    } else {
      baseline.commit();
      process.stdout.write(`sweep ${k} scan=${row.id}\n`);
      k++;
    }
    // Let the event loop breathe (a real scheduler waits for the next tick).
    await new Promise((r) => setImmediate(r));
  }
}
