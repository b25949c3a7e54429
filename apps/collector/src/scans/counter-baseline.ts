import { COUNTER_SPECS, CounterTableBuilder, PortIndex, type CounterName, type CounterTable } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { baselineAt, createCountersRepo, lastValues } from '../db/counters-repo.ts';
import { iterateSweepPorts, nodeDescriptions, portCount, type SweepPortRow } from '../db/graph-queries.ts';
import { topologyVersion } from '../db/topology-counters.ts';
import { TrafficHour } from './traffic-hour.ts';

/** Counters whose per-sweep deltas are kept (sparse, non-zero only): errors, and congestion. */
export const KEPT: ReadonlySet<CounterName> = new Set(
  [...COUNTER_SPECS.values()]
    .filter((s) => s.kind === 'error')
    .map((s) => s.name)
    .concat('PortXmitWait'),
);

/** The columns a kept counter is read from (classic and 64-bit twins): what `counter_last` stores. */
export const STORED_COLUMNS: ReadonlySet<CounterName> = new Set(
  [...KEPT].flatMap((n) => [n, ...(COUNTER_SPECS.get(n)?.extNames ?? [])]),
);

/**
 * The last counter values of every port, as of the last stored sweep: the baseline the next
 * sweep's deltas are computed against. Held in memory as the last sweep's {@link CounterTable}
 * itself (plus ports that sweep did not read), so a sweep costs no copy and no reload.
 *
 * On disk (`counter_last`) only the kept counters' columns are stored, and a port's row is
 * rewritten only when one of them changed: of 60k ports a sweep changes a few hundred, while
 * rewriting every port's values each minute was most of a sweep's time and ~40 MB of writes.
 * The rows and `counter_baseline` (the sweep they are as of) are written in the sweep's
 * transaction, so after a restart the kept counters' deltas are neither lost nor counted
 * twice. Traffic counters are not stored: for the first sweep after a restart their deltas are
 * unknown (BER then uses the line rate; the congestion rule waits one sweep).
 */
export class CounterBaseline {
  private table: CounterTable | undefined;
  private loaded = false;
  private at = 0;
  private staged: { table: CounterTable; at: number } | null = null;
  /** The current hour's traffic sums (traffic-store.ts); lives with the baseline it is computed against. */
  traffic = new TrafficHour();

  constructor(private readonly db: Db) {}

  load(): { table: CounterTable | undefined; at: number } {
    if (!this.loaded) {
      const b = new CounterTableBuilder(portCount(this.db) + 16);
      let lastAt = 0;
      // Rows come with their port's GUID and number (joined by SQLite): a map of all 69k ports
      // built first to look them up was the first sweep's largest allocation after a restart.
      // Each layout's columns in the table, found once.
      const columnsOf = new Map<readonly string[], number[]>();
      for (const last of createCountersRepo(this.db).iterateLast()) {
        const r = b.addRow(last.nodeGuid, last.portNum);
        const v = last.vals;
        if (last.layout === undefined) {
          const vals = lastValues(v, undefined);
          for (const k in vals) b.setDecimal(b.column(k), r, vals[k]!, 0, vals[k]!.length);
        } else {
          let cols = columnsOf.get(last.layout);
          if (cols === undefined) columnsOf.set(last.layout, (cols = last.layout.map((n) => b.column(n))));
          // The values in place, no array of strings: `0,0,,12,...` (empty = the port lacks it).
          let start = 0;
          for (let k = 0; k < cols.length && start <= v.length; k++) {
            let end = v.indexOf(',', start);
            if (end === -1) end = v.length;
            if (end > start) b.setDecimal(cols[k]!, r, v, start, end);
            start = end + 1;
          }
        }
        lastAt = Math.max(lastAt, last.at);
      }
      const meta = baselineAt(this.db);
      this.table = b.rows > 0 ? b.build() : undefined;
      this.at = meta ?? lastAt;
      this.loaded = true;
    }
    return { table: this.table, at: this.at };
  }

  /** The next baseline, held until the sweep's transaction commits. */
  stage(table: CounterTable, at: number): void {
    this.staged = { table, at };
  }

  /** Called only after the sweep's transaction committed. */
  commit(): void {
    if (this.staged) {
      this.table = this.staged.table;
      this.at = this.staged.at;
      this.loaded = true;
    }
    this.staged = null;
  }

  /** After a failed store the in-memory copy may be ahead of the database: reload next time. */
  invalidate(): void {
    this.table = undefined;
    this.loaded = false;
    this.at = 0;
    this.staged = null;
    this.view = null;
    this.traffic = new TrafficHour();
  }

  private view: { stamp: number; value: TopologyView } | null = null;

  /**
   * The stored ports and node descriptions a sweep needs, reloaded only when a topology scan or
   * import wrote them (the topology version): at 60k ports, reloading and re-deriving them cost
   * more per sweep than storing the sweep itself. Only the columns a sweep reads: the first
   * sweep after a topology scan rebuilds this while the scan's garbage is still on the heap.
   */
  topology(): TopologyView {
    const stamp = topologyVersion(this.db);
    if (this.view?.stamp !== stamp) {
      this.view = null; // the old view is garbage before the new one is built, not after
      const descs = new Map(nodeDescriptions(this.db).map((n) => [n.guid, n.description]));
      this.view = { stamp, value: sweepView(iterateSweepPorts(this.db), descs) };
    }
    return this.view.value;
  }

  /**
   * Sets the view `topology()` would read, from what a scan just wrote: `ports` every stored
   * port in id order (taken over, not copied), `descs` every stored node's description, both as
   * of the topology version now. A fabric's first import wrote every port itself: reading 293k
   * back was ~1 s at 45k GPUs. Inside the scan's transaction; on a rollback `invalidate` drops it.
   */
  seedTopology(ports: Iterable<SweepPort>, descs: Map<string, string>): void {
    this.view = null;
    this.view = { stamp: topologyVersion(this.db), value: sweepView(ports, descs) };
  }
}

/** The view of `ports` (in id order), by GUID and port number; the rows are taken over. */
function sweepView(ports: Iterable<SweepPort>, descs: Map<string, string>): TopologyView {
  // By GUID and port number: a sweep looks up every one of its 60k ports, and a `guid:port`
  // string per look-up cost more than the look-up.
  const byPort = new PortIndex<SweepPort>();
  // SQLite hands over a new string per cell: one copy of each GUID and rate instead of 69k
  // ("4X", "HDR") is ~5 MB less held for as long as the view lives.
  const one = new Map<string, string>();
  const shared = (v: string | null) => (v === null ? null : (one.get(v) ?? (one.set(v, v), v)));
  for (const p of ports) {
    p.nodeGuid = shared(p.nodeGuid)!;
    p.widthActive = shared(p.widthActive);
    p.speedActive = shared(p.speedActive);
    byPort.set(p.nodeGuid, p.portNum, p);
  }
  return { byPort, descs };
}

/** A stored port as a sweep sees it: its row id, line rate and when it was first seen. */
export type SweepPort = SweepPortRow;

export interface TopologyView {
  byPort: PortIndex<SweepPort>;
  descs: Map<string, string>;
}
