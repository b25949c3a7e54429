import type { FastifyInstance } from 'fastify';
import { STATUS_EXIT_CODE } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { fabricStatusReport, PROCESS_STARTED_AT } from '../analysis/fabric-status.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { smState } from '../scans/sm-view.ts';
import { smSummary } from './sm.ts';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labels = (l: Record<string, string | number>) =>
  `{${Object.entries(l)
    .map(([k, v]) => `${k}="${esc(String(v))}"`)
    .join(',')}}`;
const SM_STATE: Record<string, number> = { NOTACTIVE: 0, DISCOVERING: 1, STANDBY: 2, MASTER: 3, UNKNOWN: -1 };

class Exposition {
  private out: string[] = [];
  family(
    name: string,
    type: 'gauge' | 'counter',
    help: string,
    samples: [Record<string, string | number>, number][],
  ): void {
    this.out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [l, v] of samples)
      this.out.push(`${name}${Object.keys(l).length ? labels(l) : ''} ${Number.isFinite(v) ? v : 'NaN'}`);
  }
  text(): string {
    return this.out.join('\n') + '\n';
  }
}

/**
 * What the wall screen says, for alerting: the status word, what is broken now, scan
 * freshness, links not ok (one series per link, so an alert names the cable), findings now.
 */
function statusFamilies(e: Exposition, deps: AppDeps): void {
  const now = Date.now();
  const report = fabricStatusReport(deps.db, deps.names, deps.config, smSummary(deps, now), now, PROCESS_STARTED_AT);
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
    createFabricQueries(deps.db, deps.names)
      .unhealthyLinks()
      .map((l) => [
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
    (['critical', 'major', 'minor', 'info'] as const).map((s) => [{ severity: s }, current[s]]),
  );
}

/**
 * `/metrics` in the Prometheus text format, so sites on Prometheus/Grafana scrape each
 * fabric's collector. Per-port series only where something is wrong (error rates of the last
 * sweep, ports not Active): a 60k-port fabric stays a few hundred series when healthy.
 */
export async function metricsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.db;
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const e = new Exposition();
    const name = (guid: string, desc: string) => deps.names.name(guid, desc);
    const lastPm = db.prepare('SELECT MAX(at) FROM counter_deltas').pluck().get() as number | null;
    const rates = lastPm
      ? (db
          .prepare(
            `SELECT p.node_guid AS g, p.port_num AS p, n.description AS d, c.name AS counter, d.delta, d.interval_s AS i
             FROM counter_deltas d JOIN ports p ON p.id = d.port_id JOIN nodes n ON n.guid = p.node_guid JOIN counter_names c ON c.id = d.counter_id
             WHERE d.at = ?`,
          )
          .all(lastPm) as { g: string; p: number; d: string; counter: string; delta: number; i: number }[])
      : [];
    e.family(
      'ibwatch_port_error_rate',
      'gauge',
      'Per-second increase of a port error counter over the last PM sweep (ports with a non-zero increase only).',
      rates.map((r) => [
        { guid: r.g, port: r.p, node: name(r.g, r.d), counter: r.counter },
        r.i > 0 ? r.delta / r.i : 0,
      ]),
    );
    const errTotals = db
      .prepare(
        'SELECT c.name AS counter, SUM(d.delta) AS n FROM counter_deltas d JOIN counter_names c ON c.id = d.counter_id GROUP BY c.name',
      )
      .all() as { counter: string; n: number }[];
    e.family(
      'ibwatch_fabric_error_increase_total',
      'counter',
      'Sum of error counter increases over all ports seen by ibwatch (retained window).',
      errTotals.map((r) => [{ counter: r.counter }, r.n]),
    );
    const states = db
      .prepare("SELECT COALESCE(state, 'Unknown') AS s, COUNT(*) AS n FROM ports WHERE port_num > 0 GROUP BY state")
      .all() as { s: string; n: number }[];
    e.family(
      'ibwatch_ports',
      'gauge',
      'Ports by logical state as of the last topology scan.',
      states.map((r) => [{ state: r.s }, r.n]),
    );
    const down = db
      .prepare(
        "SELECT p.node_guid AS g, p.port_num AS p, n.description AS d, p.phys_state AS ps FROM ports p JOIN nodes n ON n.guid = p.node_guid JOIN links l ON l.a_port_id = p.id OR l.b_port_id = p.id WHERE p.state != 'Active'",
      )
      .all() as { g: string; p: number; d: string; ps: string | null }[];
    e.family(
      'ibwatch_link_port_down',
      'gauge',
      'Ports of known links that are not Active (1 per port).',
      down.map((r) => [{ guid: r.g, port: r.p, node: name(r.g, r.d), phys_state: r.ps ?? '' }, 1]),
    );
    const health = db
      .prepare("SELECT health, COUNT(*) AS n FROM links WHERE present = 1 OR health = 'down' GROUP BY health")
      .all() as { health: string; n: number }[];
    e.family(
      'ibwatch_links',
      'gauge',
      'Links by health (ok, errors, degraded, down) as the latest scans observed them.',
      ['ok', 'errors', 'degraded', 'down'].map((h) => [{ health: h }, health.find((x) => x.health === h)?.n ?? 0]),
    );
    // The SMs of the latest SM observation, as the SM page shows them (SQL in db/sm-repo.ts).
    const sm = smState(db, deps.config, deps.names, Date.now());
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
      'ibwatch_sm_missing',
      'gauge',
      'Designated SMs that do not answer (stopped answering, or never answered).',
      [[{}, sm.summary.missingCount]],
    );
    e.family(
      'ibwatch_sm_rogue',
      'gauge',
      'SMs answering at ports that are not designated SM ports (IBWATCH_SM_GUIDS or learned).',
      [[{}, sm.summary.rogueCount]],
    );
    const scans = db
      .prepare(
        `SELECT kind, SUM(status = 'failed') AS failed, MAX(CASE WHEN status IN ('ok','partial') THEN finished_at END) AS lastOk,
           (SELECT duration_ms FROM scans s2 WHERE s2.kind = s.kind AND s2.status != 'running' ORDER BY id DESC LIMIT 1) AS lastMs
         FROM scans s GROUP BY kind`,
      )
      .all() as { kind: string; failed: number; lastOk: number | null; lastMs: number | null }[];
    e.family(
      'ibwatch_scan_failures_total',
      'counter',
      'Failed scans by kind.',
      scans.map((s) => [{ kind: s.kind }, s.failed]),
    );
    e.family(
      'ibwatch_scan_duration_seconds',
      'gauge',
      'Duration of the last finished scan by kind.',
      scans.map((s) => [{ kind: s.kind }, (s.lastMs ?? NaN) / 1000]),
    );
    e.family(
      'ibwatch_scan_last_success_timestamp_seconds',
      'gauge',
      'End of the last successful scan by kind.',
      scans.map((s) => [{ kind: s.kind }, (s.lastOk ?? NaN) / 1000]),
    );
    const findings = db
      .prepare("SELECT severity, COUNT(*) AS n FROM findings WHERE state != 'resolved' GROUP BY severity")
      .all() as { severity: string; n: number }[];
    e.family(
      'ibwatch_findings_open',
      'gauge',
      'Open and acknowledged findings by severity (lifecycle: cleared ones included until they resolve).',
      ['critical', 'major', 'minor', 'info'].map((s) => [
        { severity: s },
        findings.find((f) => f.severity === s)?.n ?? 0,
      ]),
    );
    statusFamilies(e, deps);
    const nccl = createNcclRepo(db).latestPerCollective();
    e.family(
      'ibwatch_nccl_busbw_gbytes_per_second',
      'gauge',
      'Headline bus bandwidth (peak at large messages) of the latest nccl-tests run per collective (GB/s).',
      nccl.map((n) => [{ collective: n.collective, cluster: n.cluster ?? '', gdr: n.gdr }, n.busbwGBs ?? NaN]),
    );
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(e.text());
  });
}
