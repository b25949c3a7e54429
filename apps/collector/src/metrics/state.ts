import { STATUS_EXIT_CODE } from '@ibwatch/fabric';
import type { RouteDeps } from '../routes/deps.ts';
import { fabricStatusReport, PROCESS_STARTED_AT } from '../analysis/fabric-status.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { contentStamp, stamped } from '../db/stamps.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createMetricsRepo } from '../db/metrics-repo.ts';
import type { Db } from '../db/open-db.ts';
import { createStatusQueries, type StatusQueries } from '../db/status-queries.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { scanIntervals } from '../cadence.ts';
import { scheduledKinds } from '../scans/scheduler.ts';
import { smState, smSummary } from '../queries/sm-view.ts';
import type { Exposition } from './exposition.ts';

type UnhealthyLink = ReturnType<ReturnType<typeof createFabricQueries>['unhealthyLinks']>[number];

const SM_STATE: Record<string, number> = { NOTACTIVE: 0, DISCOVERING: 1, STANDBY: 2, MASTER: 3, UNKNOWN: -1 };
const SEVERITIES = ['critical', 'major', 'minor', 'info'] as const;
const IMPORT_KIND: Record<string, string> = { 'import-nccl': 'nccl', 'import-ibdiagnet': 'ibdiagnet' };

/**
 * Gauges of the current state as the latest scans observed it: what the wall screen says, links,
 * ports, subnet managers, findings, scan freshness. Computed from the database on each scrape,
 * except the counts over every port and link (69k ports at 10k GPUs), which are counted again
 * only after a commit that changed the topology or a link's health.
 */
export function createStateFamilies(deps: RouteDeps): (e: Exposition, now: number) => void {
  const repo = createMetricsRepo(deps.db);
  const fabric = createFabricQueries(deps.db, deps.names);
  const nodesStamp = contentStamp(deps.db, () => fabric.nodesStamp());
  const linksStamp = contentStamp(deps.db, () => fabric.linksStamp());
  const both = () => `${nodesStamp()}|${linksStamp()}`;
  const portsByState = stamped(nodesStamp, () => repo.portsByState());
  const linkPortsDown = stamped(both, () => repo.linkPortsDown());
  const linksByHealth = stamped(linksStamp, () => repo.linksByHealth());
  const unhealthyLinks = stamped(both, () => fabric.unhealthyLinks());
  const cablesAt = keptCablesAt(deps.db, both);
  return (e, now) => {
    statusFamilies(e, deps, now, unhealthyLinks(), cablesAt);
    e.family(
      'ibwatch_ports',
      'gauge',
      'Ports by logical state as of the last topology scan.',
      portsByState().map((r) => [{ state: r.state }, r.n]),
    );
    e.family(
      'ibwatch_link_port_down',
      'gauge',
      'Ports of known links that are not Active (1 per port).',
      linkPortsDown().map((r) => [
        { guid: r.guid, port: r.port, node: deps.names.name(r.guid, r.description), phys_state: r.physState ?? '' },
        1,
      ]),
    );
    const health = linksByHealth();
    e.family(
      'ibwatch_links',
      'gauge',
      'Links by health (ok, errors, degraded, down) as the latest scans observed them.',
      ['ok', 'errors', 'degraded', 'down'].map((h) => [{ health: h }, health.find((x) => x.health === h)?.n ?? 0]),
    );
    otherFamilies(e, deps, now);
  };
}

/**
 * The status report's cables at its findings' ports, read again only when those ports, the
 * topology (nodes, ports, tiers: the topology version) or the links' stamp moved: at 45k GPUs
 * the read took ~0.25 s of every scrape. `stamp` covers what `cablesAt` reads.
 */
export function keptCablesAt(db: Db, stamp: () => string): StatusQueries['cablesAt'] {
  const q = createStatusQueries(db);
  let key: string | null = null;
  let value: ReturnType<StatusQueries['cablesAt']> | undefined;
  return (ports) => {
    // The stamp before the read: a commit landing during it costs a read more, never a stale answer.
    const now = `${stamp()}|${ports.join(' ')}`;
    if (now !== key || !value) {
      value = q.cablesAt(ports);
      key = now;
    }
    return value;
  };
}

/** SMs, scans, findings and nccl: small tables, read on each scrape. */
function otherFamilies(e: Exposition, deps: RouteDeps, now: number): void {
  const repo = createMetricsRepo(deps.db);
  smFamilies(e, deps, now);
  scanFamilies(e, deps);
  const open = repo.openFindings();
  e.family(
    'ibwatch_findings_open',
    'gauge',
    'Open and acknowledged findings by severity (lifecycle: cleared ones included until they resolve).',
    SEVERITIES.map((s) => [{ severity: s }, open.filter((f) => f.severity === s).reduce((n, f) => n + f.n, 0)]),
  );
  e.family(
    'ibwatch_findings_open_by_kind',
    'gauge',
    'Open and acknowledged findings by severity and kind (only the pairs with at least one finding).',
    open.map((f) => [{ severity: f.severity, kind: f.kind }, f.n]),
  );
  e.family(
    'ibwatch_nccl_busbw_gbytes_per_second',
    'gauge',
    'Headline bus bandwidth (peak at large messages) of the latest nccl-tests run per collective (GB/s).',
    createNcclRepo(deps.db)
      .latestPerCollective()
      .map((n) => [{ collective: n.collective, cluster: n.cluster ?? '', gdr: n.gdr }, n.busbwGBs]),
  );
}

/** What the wall screen says: the status word, what is broken now, links not ok by name, findings now. */
function statusFamilies(
  e: Exposition,
  deps: RouteDeps,
  now: number,
  unhealthy: UnhealthyLink[],
  cablesAt: StatusQueries['cablesAt'],
): void {
  const sm = smSummary(deps, now);
  const report = fabricStatusReport(deps.db, deps.names, deps.config, sm, now, PROCESS_STARTED_AT, cablesAt);
  const word = report.fabricStatus.word;
  e.family(
    'ibwatch_fabric_status',
    'gauge',
    'The fabric status word: 1 for the current one (OK, DEGRADED, STALE, CRITICAL), 0 for the others.',
    (['OK', 'DEGRADED', 'STALE', 'CRITICAL'] as const).map((w) => [{ status: w }, w === word ? 1 : 0]),
  );
  e.family(
    'ibwatch_fabric_status_code',
    'gauge',
    'The fabric status as `ibwatch status` exits: 0 OK, 1 DEGRADED, 2 CRITICAL, 3 STALE.',
    [[{}, STATUS_EXIT_CODE[word]]],
  );
  e.family(
    'ibwatch_broken_now',
    'gauge',
    'Rows of the broken-now list by kind: cables with a problem now, SM problems, stale scan kinds.',
    (['cable', 'sm', 'scan'] as const).map((k) => [{ kind: k }, report.brokenNow.filter((r) => r.kind === k).length]),
  );
  e.family(
    'ibwatch_scan_stale',
    'gauge',
    '1 when a scheduled scan kind is stale: last success older than three intervals, or three failures in a row.',
    report.freshness.map((f) => [{ kind: f.kind }, f.state === 'stale' ? 1 : 0]),
  );
  e.family(
    'ibwatch_link_unhealthy',
    'gauge',
    'Links whose health is not ok as the latest scans observed them (1 per link; the topology colour).',
    unhealthy.map((l) => [
      {
        health: l.health,
        a_guid: l.a.guid,
        a_port: l.a.port,
        a_node: l.a.name,
        b_guid: l.b.guid,
        b_port: l.b.port,
        b_node: l.b.name,
      },
      1,
    ]),
  );
  const current = createFindingsRepo(deps.db).countCurrentBySeverity();
  e.family(
    'ibwatch_findings_current',
    'gauge',
    'Findings whose condition the latest scan of their kind observed, by severity.',
    SEVERITIES.map((s) => [{ severity: s }, current[s]]),
  );
}

/** The SMs of the latest SM observation, as the SM page shows them (SQL in db/sm-repo.ts). */
function smFamilies(e: Exposition, deps: RouteDeps, now: number): void {
  const sm = smState(deps.db, deps.config, deps.names, now);
  const sms = sm.sms.filter((s) => s.answering);
  e.family(
    'ibwatch_sm_state',
    'gauge',
    'Subnet manager state (3 MASTER, 2 STANDBY, 1 DISCOVERING, 0 NOTACTIVE), SMs answering now.',
    sms.map((s) => [
      { guid: s.guid, lid: s.lid ?? '', priority: s.priority, name: s.name ?? '' },
      SM_STATE[s.state] ?? -1,
    ]),
  );
  e.family(
    'ibwatch_sm_masters',
    'gauge',
    'Number of SMs in MASTER state (1 is healthy; 0 no master; 2+ split brain).',
    [[{}, sms.filter((s) => s.state === 'MASTER').length]],
  );
  e.family(
    'ibwatch_sm_standbys',
    'gauge',
    'Number of SMs answering in STANDBY state (0: no SM is ready to take over from the master).',
    [[{}, sms.filter((s) => s.state === 'STANDBY').length]],
  );
  e.family('ibwatch_sm_missing', 'gauge', 'Designated SMs that do not answer (stopped answering, or never answered).', [
    [{}, sm.summary.missingCount],
  ]);
  e.family(
    'ibwatch_sm_rogue',
    'gauge',
    'SMs answering at ports that are not designated SM ports (IBWATCH_SM_GUIDS or learned).',
    [[{}, sm.summary.rogueCount]],
  );
}

/**
 * Scan timestamps: the scheduled kinds' last success (with their interval, so a rule can say
 * "three intervals late"), and on-demand imports under another name, so that a rule on
 * `ibwatch_scan_last_success_timestamp_seconds` never alerts because nobody uploaded a run.
 */
function scanFamilies(e: Exposition, deps: RouteDeps): void {
  const kinds = createMetricsRepo(deps.db).scanKinds();
  const scheduled = scheduledKinds(deps.config);
  const intervals = scanIntervals(deps.config);
  const isScheduled = (k: string) => (scheduled as string[]).includes(k);
  e.family(
    'ibwatch_scan_last_success_timestamp_seconds',
    'gauge',
    'End of the last successful (ok or partial) scan of each scheduled kind (none before the first success).',
    kinds
      .filter((s) => isScheduled(s.kind))
      .map((s) => [{ kind: s.kind }, s.lastOkAt === null ? null : s.lastOkAt / 1000]),
  );
  e.family(
    'ibwatch_scan_interval_seconds',
    'gauge',
    'Expected time between two scans of each scheduled kind (from its schedule).',
    scheduled.map((k) => [{ kind: k }, intervals[k] / 1000]),
  );
  e.family(
    'ibwatch_scan_last_duration_seconds',
    'gauge',
    'Duration of the last finished scan or import of each kind (storing included).',
    kinds.map((s) => [{ kind: s.kind }, s.lastMs === null ? null : s.lastMs / 1000]),
  );
  e.family(
    'ibwatch_import_last_success_timestamp_seconds',
    'gauge',
    'End of the last successful import by kind (nccl, ibdiagnet): on demand, so its age is no sign of trouble.',
    kinds
      .filter((s) => IMPORT_KIND[s.kind])
      .map((s) => [{ kind: IMPORT_KIND[s.kind]! }, s.lastOkAt === null ? null : s.lastOkAt / 1000]),
  );
}
