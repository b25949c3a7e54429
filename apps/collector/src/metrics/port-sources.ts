import type { CounterTable } from '@ibwatch/fabric';
import type { RouteDeps } from '../routes/deps.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createMetricsRepo, type MetricsPort } from '../db/metrics-repo.ts';
import { contentStamp } from '../db/stamps.ts';
import { ALL_PORTS_MAX, allPortsLimit, problemKeys, type PortSources, rowIndex } from './ports.ts';

/** Same ports in the same order, compared as the parser hands them over: a node's rows share one string. */
export function sameKeys(a: Pick<CounterTable, 'rows' | 'nodeGuids' | 'portNums'>, b: CounterTable): boolean {
  if (a.rows !== b.rows) return false;
  for (let r = 0; r < b.rows; r++) if (a.portNums[r] !== b.portNums[r]) return false;
  const ag = a.nodeGuids;
  const bg = b.nodeGuids;
  for (let r = 0; r < b.rows; r++) {
    if (r > 0 && ag[r] === ag[r - 1] && bg[r] === bg[r - 1]) continue; // same run, already compared
    if (ag[r] !== bg[r]) return false;
  }
  return true;
}

/** Moves with the topology version and the links' stamp: what the ports and their labels are read from. */
export function topologyStamp(deps: RouteDeps): () => string {
  const fabric = createFabricQueries(deps.db, deps.names);
  return contentStamp(deps.db, () => `${fabric.nodesStamp()}|${fabric.linksStamp()}`);
}

/**
 * The per-port families' inputs, kept between sweeps (at 45k GPUs a rebuild after each sweep
 * spent ~0.9 s indexing the 272k rows of the new table and ~0.3 s selecting and naming the same
 * ports again):
 * - the row index is reused while a new sweep's table lists the same ports in the same order
 *   (checked row by row, a few ms), which is every sweep of an unchanged fabric;
 * - the problem ports and each port's names and far end are kept while the topology version and
 *   the links' stamp stand still (what they are read from); only the ports new to the last
 *   sweep's error ports are read.
 * The answers are exactly portFamilies' own (port-sources.test.ts compares both on changing input).
 */
export function cachedPortSources(deps: RouteDeps, topo: () => string = topologyStamp(deps)): PortSources {
  const repo = createMetricsRepo(deps.db);
  let stamp: string | null = null;
  let problem: { guid: string; port: number }[] | null = null;
  /** Ports read so far under this stamp; null: no such port. */
  let known = new Map<string, MetricsPort | null>();
  let all: { n: number; ports?: MetricsPort[] } | null = null;
  let last: { keys: Pick<CounterTable, 'rows' | 'nodeGuids' | 'portNums'>; index: Map<string, number> } | null = null;
  const current = () => {
    const s = topo();
    if (s === stamp) return;
    stamp = s;
    problem = null;
    known = new Map();
    all = null;
  };
  return {
    ports(deltas) {
      current();
      if (deps.config.metricsPorts === 'all') {
        all ??= { n: repo.allPortCount() };
        if (all.n > ALL_PORTS_MAX) throw allPortsLimit(all.n);
        return (all.ports ??= repo.allPorts());
      }
      if (deps.config.metricsPorts === 'off') return [];
      const keys = problemKeys((problem ??= repo.problemPortKeys()), deltas);
      const missing = [...keys].filter(([k]) => !known.has(k)).map(([, k]) => k);
      if (missing.length) {
        for (const k of missing) known.set(`${k.guid}/${k.port}`, null);
        for (const p of repo.portsAt(missing)) known.set(`${p.guid}/${p.port}`, p);
      }
      const out: MetricsPort[] = [];
      for (const k of keys.keys()) {
        const p = known.get(k);
        if (p) out.push(p);
      }
      // Ports that had errors once and no more: forget them rather than grow with every sweep.
      if (known.size > 2 * keys.size + 10_000) known = new Map([...keys.keys()].map((k) => [k, known.get(k)!]));
      return out;
    },
    rows(table) {
      const index = last && sameKeys(last.keys, table) ? last.index : rowIndex(table);
      // Only the key arrays are kept: the current sweep's table holds them anyway.
      last = { keys: { rows: table.rows, nodeGuids: table.nodeGuids, portNums: table.portNums }, index };
      return index;
    },
  };
}
