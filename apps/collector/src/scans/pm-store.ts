import {
  appendRows,
  computeTableDeltas,
  evaluateFlaps,
  evaluateLifetimeCounters,
  evaluatePortHealth,
  portKey,
  rowsWithCounts,
  subjectKey,
  tableChanges,
  tableFromPortCounters,
  tableRow,
  type CounterTable,
  type FlapEvent,
  type PortCounters,
  type PortDelta,
  type TableChanges,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { baselineScan, createCountersRepo, linkDownedSince } from '../db/counters-repo.ts';
import { lidsOfPorts, linkEndsAtPorts, linkFirstSeenAtPorts } from '../db/graph-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { type CounterBaseline, KEPT, STORED_COLUMNS } from './counter-baseline.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { healthThresholds } from '../analysis/thresholds.ts';
import { PM_KINDS, syncFindings } from './findings-sync.ts';
import { endsOfSubjectKey, refreshLinkHealth } from './link-health-store.ts';
import { observeSweep } from '../metrics/registry.ts';
import { prepareTraffic, storeTraffic, type PreparedTraffic } from './traffic-store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** What a sweep's store needs of every row, computed before its transaction ({@link preparePm}). */
export interface PmPrepared {
  changes: TableChanges;
  traffic: PreparedTraffic;
}

/**
 * The passes over every row of a sweep that need neither the database nor the sweep's time:
 * which ports moved (computeTableDeltas' first pass) and the traffic deltas. The scan service
 * runs this before the write transaction, with the event loop free in between, so the
 * transaction that holds it is shorter by these passes (at 45k GPUs, 272k rows each). storePm
 * uses them only when they are of its very baseline and sweep; otherwise it computes them again,
 * so the stored result is the same either way. `undefined` when there is no baseline yet.
 */
export function preparePm(baseline: CounterBaseline, sweep: CounterTable): PmPrepared | undefined {
  const prev = baseline.load();
  if (!(prev.at > 0) || !prev.table) return undefined;
  const changes = tableChanges(prev.table, sweep, KEPT);
  return { changes, traffic: prepareTraffic(baseline.traffic, prev.table, sweep, changes.prevRow) };
}

/**
 * Stores one PM sweep: deltas against the baseline (resets and wraps handled in
 * packages/fabric), sparse error deltas and hourly rollups, new baseline values, and the
 * verdicts of the error-rate and flap rules. Runs inside the scan's transaction.
 */
export function storePm(
  db: Db,
  config: Config,
  names: NameBook,
  baseline: CounterBaseline,
  scanId: number,
  at: number,
  sweep: CounterTable | readonly PortCounters[],
  toolDeltas?: PortDelta[],
  prepared?: PmPrepared,
): Record<string, number> {
  const current = Array.isArray(sweep)
    ? tableFromPortCounters(sweep as readonly PortCounters[])
    : (sweep as CounterTable);
  const counters = createCountersRepo(db);
  observeSweep(db, current, at); // per-port raw counters on /metrics (IBWATCH_METRICS_PORTS)
  const { byPort, descs } = baseline.topology();
  const prev = baseline.load();
  // Read before this sweep becomes the baseline: when the previous snapshot was taken.
  const prevScan = prev.at > 0 ? baselineScan(db) : undefined;
  const intervalS = prev.at > 0 ? (at - prev.at) / 1000 : 0;
  // Only ports on which a kept counter moved (or is pegged) come back: nothing else is stored
  // or judged, and on a busy fabric that is a few hundred of 60k ports.
  const result = computeTableDeltas(prev.at > 0 ? prev.table : undefined, current, intervalS, {
    watch: KEPT,
    ...(prepared ? { changes: prepared.changes } : {}),
  });
  // A port seen for the first time has only lifetime totals; when the tool measured a delta
  // itself (ibdiagnet's PM_DELTA over its sleep), that gives the port a rate right away.
  if (toolDeltas?.length && result.baseline.length) {
    const fresh = new Set(result.baseline.map((p) => `${p.nodeGuid}/${p.portNum}`));
    for (const td of toolDeltas) {
      if (!fresh.has(`${td.nodeGuid}/${td.portNum}`)) continue;
      if (Object.keys(td.counters).some((k) => KEPT.has(k) && (td.counters[k]!.delta ?? 0n) > 0n))
        result.ports.push(td);
    }
  }
  const portOf = (g: string, n: number) => byPort.get(g, n);

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
  // The stored baseline: only ports whose kept counters changed (or that are new).
  const storedCols = current.columns.filter((c) => STORED_COLUMNS.has(c.name));
  // New or changed ports the stored topology lacks (a topology scan is behind): not stored.
  let unknownPorts = 0;
  const lastIds: number[] = [];
  const lastRows: number[] = [];
  for (const r of result.changedRows) {
    const portId = portOf(current.nodeGuids[r]!, current.portNums[r]!)?.id;
    if (portId === undefined) unknownPorts++;
    else {
      lastIds.push(portId);
      lastRows.push(r);
    }
  }
  counters.storeLastRows(at, scanId, storedCols, lastIds, lastRows);
  const portName = (g: string, n: number) => `${names.name(g, descs.get(g))} port ${n}`;
  const traffic = storeTraffic(db, config, baseline.traffic, {
    previous: prev.at > 0 ? prev.table : undefined,
    current,
    at,
    intervalS,
    view: baseline.topology(),
    portName,
    ...(prepared ? { prepared: prepared.traffic } : {}),
  });
  counters.storeBaselineTime(at, scanId);
  baseline.stage(prev.table ? appendRows(current, prev.table, result.unmatchedPrevious) : current, at);

  const thresholds = healthThresholds(config);
  const flaps = flapEvents(db, at, thresholds.flaps.windowHours);
  // Ports read for the first time: their totals since the last clear are judged on their own
  // (only rows with a non-zero watched counter become records).
  const firstSnapshot = rowsWithCounts(current, result.baselineRows).map((r) => tableRow(current, r));
  // Line rates of the judged ports only: the rules key every port they are given.
  const fabricPorts = [];
  const keyById = new Map<number, string>();
  for (const pd of result.ports) {
    const p = portOf(pd.nodeGuid, pd.portNum);
    if (!p) continue;
    fabricPorts.push({
      nodeGuid: p.nodeGuid,
      portNum: p.portNum,
      widthActive: (p.widthActive ?? undefined) as never,
      speedActive: (p.speedActive ?? undefined) as never,
    });
    keyById.set(p.id, `${p.nodeGuid}/${p.portNum}`);
  }
  // When each judged port's link was first seen (the link's row, not the port's: a port cabled
  // anew is an old port with a new link), for the grace period of links new in this scan.
  const linkFirstSeen = new Map<string, string>();
  for (const [id, first] of linkFirstSeenAtPorts(db, [...keyById.keys()])) {
    const key = keyById.get(id);
    if (key !== undefined) linkFirstSeen.set(key, iso(first));
  }
  const lids = lidsOfPorts(db, [
    ...keyById.keys(),
    ...firstSnapshot.flatMap((r) => portOf(r.nodeGuid, r.portNum)?.id ?? []),
  ]);
  const lidOf = (g: string, n: number) => {
    const id = portOf(g, n)?.id;
    return id === undefined ? undefined : lids.get(id);
  };
  const previousAt = prevScan?.finishedAt ? iso(prevScan.finishedAt) : undefined;
  // A link's flap count (over the window) is judged by the sweep that saw it flap; the finding is
  // an event (findingNature) and holds for the flap window after that sweep (syncFindings), or
  // until someone acknowledges it or marks it fixed. Only the sweep with a new flap re-judges it,
  // so a link marked fixed after a reseat (itself a flap) stays fixed until it flaps again.
  const flappedNow = new Set(flaps.filter((f) => f.at === iso(at)).map((f) => portKey(f.port)));
  const verdicts = [
    ...evaluatePortHealth(result.ports, {
      now: iso(at),
      ports: fabricPorts,
      linkFirstSeen,
      ...(previousAt ? { previousAt } : {}),
      portName,
      lidOf,
      thresholds,
    }),
    ...evaluateLifetimeCounters(firstSnapshot, { portName, lidOf }),
    // Only the links a flap is to be placed on: with any flap in the window (at 10k GPUs nearly
    // always) all 31k links were loaded and keyed every sweep, most of a sweep's garbage.
    ...(flappedNow.size === 0
      ? []
      : evaluateFlaps(flaps, {
          now: iso(at),
          links: linksAt(
            db,
            flaps.map((f) => f.portId),
          ),
          thresholds,
          nodeName: (g) => names.name(g, descs.get(g)),
        }).filter((v) => endsOfSubjectKey(subjectKey(v.subject)).some((e) => flappedNow.has(e)))),
  ];
  const findings = syncFindings(
    createFindingsRepo(db),
    verdicts,
    PM_KINDS,
    at,
    config.autoResolveMin * 60_000,
    thresholds,
  );
  refreshLinkHealth(db, new Set(findings.changedSubjects.flatMap(endsOfSubjectKey)));
  return {
    ports: current.rows,
    changedPorts: result.changedRows.length,
    baselinePorts: result.baseline.length,
    intervalS: Math.round(intervalS),
    deltasStored: stored,
    unknownPorts,
    findingsOpened: findings.opened,
    findingsUpdated: findings.updated,
    findingsCleared: findings.cleared,
    findingsResolved: findings.resolved,
    ...portsWithErrors(result.ports),
    ...traffic,
  };
}

function portsWithErrors(ports: PortDelta[]): { portsWithErrors: number } {
  let n = 0;
  for (const p of ports)
    for (const k in p.counters)
      if (KEPT.has(k) && k !== 'PortXmitWait' && (p.counters[k]!.delta ?? 0n) > 0n) {
        n++;
        break;
      }
  return { portsWithErrors: n };
}

/** Flaps in the window: LinkDownedCounter increases as stored (already net of resets/baselines). */
function flapEvents(db: Db, at: number, windowHours: number): (FlapEvent & { portId: number })[] {
  const rows = linkDownedSince(db, at - windowHours * 3_600_000);
  return rows.map((r) => ({
    at: iso(r.at),
    port: { nodeGuid: r.g, portNum: r.n },
    count: r.delta,
    source: 'LinkDownedCounter',
    portId: r.id,
  }));
}

/** Every stored link (gone ones too) with an end among `portIds`, oldest first as in the table. */
function linksAt(db: Db, portIds: number[]) {
  return linkEndsAtPorts(db, portIds).map((r) => ({
    a: { nodeGuid: r.ag, portNum: r.ap },
    b: { nodeGuid: r.bg, portNum: r.bp },
  }));
}
