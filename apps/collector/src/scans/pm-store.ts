import {
  COUNTER_SPECS, computeDeltas, evaluateFlaps, evaluatePortHealth, type FlapEvent, type PortCounters, type PortDelta,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createCountersRepo } from '../db/counters-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createTopologyRepo, type StoredPort } from '../db/topology-repo.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { healthThresholds } from '../analysis/thresholds.ts';
import { PM_KINDS, syncFindings } from './findings-sync.ts';
import { refreshLinkHealth } from './link-health-store.ts';

const iso = (ms: number) => new Date(ms).toISOString();
/** Counters whose per-sweep deltas are kept (sparse, non-zero only): errors, and congestion. */
const KEPT = new Set([...COUNTER_SPECS.values()].filter((s) => s.kind === 'error').map((s) => s.name).concat('PortXmitWait'));

/**
 * The last counter values of every port, as of the last stored sweep: the baseline that the
 * next sweep's deltas are computed against. Kept in memory (a 60k-port fabric would otherwise
 * reload 60k rows per sweep) and loaded from `counter_last` after a restart, so deltas are
 * neither lost nor counted twice across restarts: both are written in the same transaction.
 */
export class CounterBaseline {
  private byKey: Map<string, PortCounters> | null = null;
  private at = 0;

  constructor(private readonly db: Db) {}

  load(): { ports: PortCounters[]; at: number } {
    if (!this.byKey) {
      const repo = createCountersRepo(this.db);
      const guidOf = new Map(
        (this.db.prepare('SELECT id, node_guid AS g, port_num AS p FROM ports').all() as { id: number; g: string; p: number }[]).map((r) => [r.id, r]),
      );
      this.byKey = new Map();
      for (const [portId, last] of repo.loadLast()) {
        const port = guidOf.get(portId);
        if (!port) continue;
        const counters: Record<string, bigint> = {};
        for (const k in last.vals) counters[k] = BigInt(last.vals[k]!);
        this.byKey.set(`${port.g}:${port.p}`, { nodeGuid: port.g, portNum: port.p, counters });
        this.at = Math.max(this.at, last.at);
      }
    }
    return { ports: [...this.byKey.values()], at: this.at };
  }

  /** Called only after the sweep's transaction committed. */
  commit(ports: PortCounters[], at: number): void {
    if (!this.byKey) this.load();
    for (const p of ports) this.byKey!.set(`${p.nodeGuid}:${p.portNum}`, p);
    this.at = at;
  }

  /** After a failed store the in-memory copy may be ahead of the database: reload next time. */
  invalidate(): void {
    this.byKey = null;
    this.at = 0;
    this.view = null;
  }

  private view: { stamp: string; value: TopologyView } | null = null;

  /**
   * The stored ports and node descriptions a sweep needs, reloaded only when a topology scan or
   * import changed them (row counts, highest id, last-seen time): at 60k ports, reloading and
   * re-deriving them cost more per sweep than storing the sweep itself.
   */
  topology(): TopologyView {
    const stamp = JSON.stringify(this.db.prepare(
      `SELECT (SELECT COUNT(*) FROM ports) AS p, (SELECT MAX(id) FROM ports) AS i, (SELECT MAX(last_seen) FROM ports) AS ps,
              (SELECT COUNT(*) FROM nodes) AS n, (SELECT MAX(last_seen) FROM nodes) AS ns`,
    ).get());
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

interface TopologyView {
  byNode: Map<string, (StoredPort | undefined)[]>;
  descs: Map<string, string>;
  linkFirstSeen: Map<string, string>;
}

/**
 * Stores one PM sweep: deltas against the baseline (resets and wraps handled in
 * packages/fabric), sparse error deltas and hourly rollups, new baseline values, and the
 * verdicts of the error-rate and flap rules. Runs inside the scan's transaction.
 */
export function storePm(
  db: Db, config: Config, names: NameBook, baseline: CounterBaseline, scanId: number, at: number, current: PortCounters[],
  toolDeltas?: PortDelta[],
): Record<string, number> {
  const counters = createCountersRepo(db);
  const { byNode, descs, linkFirstSeen } = baseline.topology();
  const prev = baseline.load();
  const intervalS = prev.at > 0 ? (at - prev.at) / 1000 : 0;
  // Only ports on which a kept counter moved (or is pegged) come back: nothing else is stored
  // or judged, and on a busy fabric that is a few hundred of 60k ports.
  const result = computeDeltas(prev.at > 0 ? prev.ports : undefined, current, intervalS, { watch: KEPT });
  // A port seen for the first time has only lifetime totals; when the tool measured a delta
  // itself (ibdiagnet's PM_DELTA over its sleep), that gives the port a rate right away.
  if (toolDeltas?.length && result.baseline.length) {
    const fresh = new Set(result.baseline.map((p) => `${p.nodeGuid}/${p.portNum}`));
    for (const td of toolDeltas) {
      if (!fresh.has(`${td.nodeGuid}/${td.portNum}`)) continue;
      if (Object.keys(td.counters).some((k) => KEPT.has(k) && (td.counters[k]!.delta ?? 0n) > 0n)) result.ports.push(td);
    }
  }
  const portOf = (g: string, n: number) => byNode.get(g)?.[n];

  let stored = 0;
  for (const pd of result.ports) {
    const portId = portOf(pd.nodeGuid, pd.portNum)?.id;
    if (portId === undefined) continue;
    for (const name in pd.counters) {
      const d = pd.counters[name]!;
      if (d.delta === undefined || d.delta <= 0n || !KEPT.has(name)) continue;
      counters.addDelta(portId, name, at, pd.intervalSeconds, d.delta, scanId);
      stored++;
    }
  }
  let unknownPorts = 0;
  for (const p of current) {
    const portId = portOf(p.nodeGuid, p.portNum)?.id;
    if (portId === undefined) unknownPorts++;
    else counters.storeLast(portId, at, scanId, p.counters);
  }

  const portName = (g: string, n: number) => `${names.name(g, descs.get(g))} port ${n}`;
  const thresholds = healthThresholds(config);
  const flaps = flapEvents(db, at, thresholds.flaps.windowHours);
  // Line rates of the judged ports only: the rules key every port they are given.
  const fabricPorts = [];
  for (const pd of result.ports) {
    const p = portOf(pd.nodeGuid, pd.portNum);
    if (p) fabricPorts.push({ nodeGuid: p.nodeGuid, portNum: p.portNum, widthActive: (p.widthActive ?? undefined) as never, speedActive: (p.speedActive ?? undefined) as never });
  }
  const verdicts = [
    ...evaluatePortHealth(result.ports, { now: iso(at), ports: fabricPorts, linkFirstSeen, portName, thresholds }),
    // The 30k-row links join only when there is a flap to place on a link.
    ...(flaps.length === 0 ? [] : evaluateFlaps(flaps, {
      now: iso(at), links: linksOf(db), thresholds, nodeName: (g) => names.name(g, descs.get(g)),
    })),
  ];
  const findings = syncFindings(createFindingsRepo(db), verdicts, PM_KINDS, at, config.autoResolveSweeps);
  refreshLinkHealth(db);
  return {
    ports: current.length, baselinePorts: result.baseline.length, intervalS: Math.round(intervalS), deltasStored: stored,
    unknownPorts, findingsOpened: findings.opened, findingsResolved: findings.resolved, ...portsWithErrors(result.ports),
  };
}

function portsWithErrors(ports: PortDelta[]): { portsWithErrors: number } {
  let n = 0;
  for (const p of ports) for (const k in p.counters) if (KEPT.has(k) && k !== 'PortXmitWait' && (p.counters[k]!.delta ?? 0n) > 0n) { n++; break; }
  return { portsWithErrors: n };
}

/** Flaps in the window: LinkDownedCounter increases as stored (already net of resets/baselines). */
function flapEvents(db: Db, at: number, windowHours: number): FlapEvent[] {
  const rows = db
    .prepare(
      `SELECT d.at, d.delta, p.node_guid AS g, p.port_num AS n FROM counter_deltas d JOIN ports p ON p.id = d.port_id
       JOIN counter_names c ON c.id = d.counter_id WHERE c.name = 'LinkDownedCounter' AND d.at > ?`,
    )
    .all(at - windowHours * 3_600_000) as { at: number; delta: number; g: string; n: number }[];
  return rows.map((r) => ({ at: iso(r.at), port: { nodeGuid: r.g, portNum: r.n }, count: r.delta, source: 'LinkDownedCounter' }));
}

function linksOf(db: Db) {
  return (
    db
      .prepare('SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id')
      .all() as { ag: string; ap: number; bg: string; bp: number }[]
  ).map((r) => ({ a: { nodeGuid: r.ag, portNum: r.ap }, b: { nodeGuid: r.bg, portNum: r.bp } }));
}
