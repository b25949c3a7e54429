import { COUNTER_SPECS, CounterTableBuilder, type CounterName, type CounterTable } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createCountersRepo } from '../db/counters-repo.ts';
import { createTopologyRepo, topologyVersion, type StoredPort } from '../db/topology-repo.ts';

/** Counters whose per-sweep deltas are kept (sparse, non-zero only): errors, and congestion. */
export const KEPT: ReadonlySet<CounterName> = new Set(
  [...COUNTER_SPECS.values()].filter((s) => s.kind === 'error').map((s) => s.name).concat('PortXmitWait'),
);

/** The columns a kept counter is read from (classic and 64-bit twins): what `counter_last` stores. */
export const STORED_COLUMNS: ReadonlySet<CounterName> = new Set(
  [...KEPT].flatMap((n) => [n, ...(COUNTER_SPECS.get(n)?.extNames ?? [])]),
);

const iso = (ms: number) => new Date(ms).toISOString();

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

  constructor(private readonly db: Db) {}

  load(): { table: CounterTable | undefined; at: number } {
    if (!this.loaded) {
      const guidOf = new Map(
        (this.db.prepare('SELECT id, node_guid AS g, port_num AS p FROM ports').all() as { id: number; g: string; p: number }[]).map((r) => [r.id, r]),
      );
      const b = new CounterTableBuilder(guidOf.size + 16);
      let lastAt = 0;
      for (const last of createCountersRepo(this.db).iterateLast()) {
        const port = guidOf.get(last.portId);
        if (!port) continue;
        const r = b.addRow(port.g, port.p);
        const vals = JSON.parse(last.vals) as Record<string, string>;
        for (const k in vals) {
          const v = vals[k]!;
          b.setDecimal(b.column(k), r, v, 0, v.length);
        }
        lastAt = Math.max(lastAt, last.at);
      }
      const meta = this.db.prepare('SELECT at FROM counter_baseline WHERE id = 1').pluck().get() as number | undefined;
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
  }

  private view: { stamp: number; value: TopologyView } | null = null;

  /**
   * The stored ports and node descriptions a sweep needs, reloaded only when a topology scan or
   * import wrote them (the topology version): at 60k ports, reloading and re-deriving them cost
   * more per sweep than storing the sweep itself.
   */
  topology(): TopologyView {
    const stamp = topologyVersion(this.db);
    if (this.view?.stamp !== stamp) {
      const ports = createTopologyRepo(this.db).loadPorts();
      const descs = new Map((this.db.prepare('SELECT guid, description FROM nodes').all() as { guid: string; description: string }[]).map((n) => [n.guid, n.description]));
      const linkFirstSeen = new Map<string, string>();
      // guid -> stored ports by number: a sweep looks up every one of its 60k ports, and a
      // `guid:port` string per look-up cost more than the look-up.
      const byNode = new Map<string, (StoredPort | undefined)[]>();
      for (const p of ports.values()) {
        linkFirstSeen.set(`${p.nodeGuid}/${p.portNum}`, iso(p.firstSeen));
        let arr = byNode.get(p.nodeGuid);
        if (!arr) byNode.set(p.nodeGuid, (arr = []));
        arr[p.portNum] = p;
      }
      this.view = { stamp, value: { byNode, descs, linkFirstSeen } };
    }
    return this.view.value;
  }
}

export interface TopologyView {
  byNode: Map<string, (StoredPort | undefined)[]>;
  descs: Map<string, string>;
  linkFirstSeen: Map<string, string>;
}
