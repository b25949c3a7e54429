import { Counter, Histogram, Registry } from 'prom-client';
import { COUNTER_SPECS, type CounterTable, type ScanRow } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { createMetricsRepo } from '../db/metrics-repo.ts';

/**
 * What this process saw happen since it started, as Prometheus counters and histograms: they
 * only go up (a restart starts them at 0, which Prometheus reads as a counter reset), unlike
 * sums over retained rows, which shrink when retention prunes.
 */
export const registry = new Registry();

const SCAN_KINDS = ['pm', 'sm', 'topology', 'ibdiagnet'] as const;
const IMPORT_KINDS: Record<string, string> = { 'import-nccl': 'nccl', 'import-ibdiagnet': 'ibdiagnet' };
const STATUSES = ['ok', 'partial', 'failed'] as const;
/** Error counters: PortXmitWait is congestion, not an error, and traffic counters are not stored. */
export const ERROR_COUNTERS = [...COUNTER_SPECS.values()].filter((s) => s.kind === 'error').map((s) => s.name);

const scans = new Counter({
  name: 'ibwatch_scans_total',
  help: 'Scans finished since the collector started, by kind (pm, sm, topology, ibdiagnet) and status.',
  labelNames: ['kind', 'status'],
  registers: [registry],
});
const imports = new Counter({
  name: 'ibwatch_imports_total',
  help: 'Imports (nccl-tests results, ibdiagnet runs) finished since the collector started, by kind and status.',
  labelNames: ['kind', 'status'],
  registers: [registry],
});
const pmSweeps = new Counter({
  name: 'ibwatch_pm_sweeps_total',
  help: 'PM counter sweeps stored since the collector started (pm scans with status ok or partial).',
  registers: [registry],
});
const errorIncrements = new Counter({
  name: 'ibwatch_error_increments_total',
  help: 'Increases of port error counters over all ports, as the sweeps stored since the collector started saw them.',
  labelNames: ['counter'],
  registers: [registry],
});
const durations = new Histogram({
  name: 'ibwatch_scan_duration_seconds',
  help: 'Durations of the scans and imports finished since the collector started, by kind (storing included).',
  labelNames: ['kind'],
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

// Every series exists from the start at 0: an increase from "absent" to 1 is invisible to rate().
for (const kind of SCAN_KINDS) for (const status of STATUSES) scans.labels(kind, status).inc(0);
for (const kind of Object.values(IMPORT_KINDS)) for (const status of STATUSES) imports.labels(kind, status).inc(0);
for (const counter of ERROR_COUNTERS) errorIncrements.labels(counter).inc(0);
pmSweeps.inc(0);

/** What `/metrics` does once a scan has finished (warm its per-port cache), per database. */
const afterScan = new WeakMap<Db, () => void>();

export function onScanObserved(db: Db, fn: () => void): void {
  afterScan.set(db, fn);
}

/** Counts one finished scan or import (called once per scan by the pipeline, whatever its outcome). */
export function observeScan(db: Db, row: ScanRow): void {
  if (row.status === 'running') return;
  const after = afterScan.get(db);
  // After this scan's commits, not inside them: a cache built here sees what the scan stored.
  if (after && row.status !== 'failed') setImmediate(after);
  const imported = IMPORT_KINDS[row.kind];
  if (imported) imports.labels(imported, row.status).inc();
  else scans.labels(row.kind, row.status).inc();
  if (row.durationMs !== null && row.durationMs >= 0) durations.labels(row.kind).observe(row.durationMs / 1000);
  if (row.status === 'failed' || row.id === 0) return;
  if (row.kind === 'pm') pmSweeps.inc();
  if (row.kind === 'pm' || row.kind === 'ibdiagnet' || row.kind === 'import-ibdiagnet') {
    try {
      for (const r of createMetricsRepo(db).incrementsOfScan(row.id, row.startedAt))
        if (ERROR_COUNTERS.includes(r.counter) && r.n > 0) errorIncrements.labels(r.counter).inc(r.n);
    } catch {
      // A metric must never fail a scan; the database error shows in the scan itself.
    }
  }
}

/** The last PM sweep this process read, per database: the per-port raw counters of `/metrics`. */
const sweeps = new WeakMap<Db, { table: CounterTable; at: number }>();

/** Keeps a reference to a sweep's counter table (no copy): called where a sweep is stored. */
export function observeSweep(db: Db, table: CounterTable, at: number): void {
  sweeps.set(db, { table, at });
}

export function latestSweep(db: Db): { table: CounterTable; at: number } | undefined {
  return sweeps.get(db);
}

/** The last PM sweep's traffic rates, per row of its counter table (NaN: unknown), for `/metrics`. */
export interface SweepTraffic {
  table: CounterTable;
  txBps: Float64Array;
  rxBps: Float64Array;
  waitTps: Float64Array;
}
const traffic = new WeakMap<Db, SweepTraffic>();

/** Called where a sweep's traffic is computed (traffic-store.ts): references, no copies. */
export function observeTraffic(db: Db, t: SweepTraffic): void {
  traffic.set(db, t);
}

export function latestTraffic(db: Db): SweepTraffic | undefined {
  return traffic.get(db);
}
