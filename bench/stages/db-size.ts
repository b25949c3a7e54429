/**
 * Database size after 30 days of 60-s sweeps (43,200 sweeps) at the default retention
 * (per-sweep deltas 7 days, hourly rollups 365 days, raw output 3 days: one PM sweep an hour),
 * traffic included: one file, one figure (issue 19). Not 43k full ingests: the sparse model's
 * delta rows (the rows counters-repo's addDelta writes, 256 to a statement, a day to a
 * transaction) and their hourly rollups are written directly, on top of a real
 * topology + counter_last from one scan, then every cabled port's hourly traffic as the
 * traffic-size stage writes it (`writeTraffic`). counter_deltas' secondary indexes are created
 * after the last day (VACUUM rebuilds them in key order either way).
 */
import { statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { benchFabric, sizeLabel, type BenchFabric } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage, type StageCtx } from '../lib/stage.ts';
import { targetFor } from '../lib/targets.ts';
import { sweepIncrements } from '../../packages/parsers/bench/sweeps.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { createCountersRepo, intervalMs } from '../../apps/collector/src/db/counters-repo.ts';
import { createScansRepo } from '../../apps/collector/src/db/scans-repo.ts';
import { dbSplit, splitText } from '../lib/db-split.ts';
import { BatchInsert, createIndexes, dropIndexes } from '../../apps/collector/src/db/batch-insert.ts';
import { openDb, writeTransaction } from '../../apps/collector/src/db/open-db.ts';
import { writeTraffic } from './traffic-size.ts';

const MIN = 60_000;
const DAY = 86_400_000;

export interface HistoryDb {
  file: string;
  bytes: number;
  days: number;
  note: string;
  /** A port with errors on most days: the worst case for the history endpoint. */
  port: { guid: string; port: number; points: string };
}

let built: Promise<HistoryDb> | null = null;

/** The 30-day database (3 days with --quick), built once per run. */
export function historyDb(ctx: StageCtx): Promise<HistoryDb> {
  built ??= build(ctx);
  return built;
}

export const dbSizeStage: Stage = async (ctx) => {
  const h = await historyDb(ctx);
  const f = benchFabric(ctx.big);
  return [
    {
      stage: 'db-size',
      what: `database after ${h.days} d of 60-s sweeps incl. traffic (VACUUMed)`,
      size: sizeLabel(f),
      value: h.bytes / 1e9,
      unit: 'GB',
      runs: 1,
      // The 30-day target; the 3 days of --quick get their share of it.
      target: { op: '<', value: (targetFor('db.size-30d', ctx.big).value * h.days) / 30 },
      note: h.note,
    },
  ];
};

async function build(ctx: StageCtx): Promise<HistoryDb> {
  const f = benchFabric(ctx.big);
  const tools = new FakeFabricTools(f);
  const dir = ctx.tmp('dbsize');
  const tBuild = performance.now();
  const c = createContext(benchConfig(dir), { runner: tools.runner() });
  for (const k of ['topology', 'sm', 'pm', 'pm'] as const) await c.scans.run(k, 'cli');
  const days = ctx.quick ? 3 : 30;
  const rawDays = Math.min(days, c.config.retention.rawDeltaDays);
  // Older sweeps' deltas are pruned by maintenance; only their hourly rollups remain.
  const rollup = c.db.prepare(
    'INSERT INTO counter_rollups (port_id, counter_id, hour, delta) VALUES (?, ?, ?, ?) ON CONFLICT ' +
      '(port_id, counter_id, hour) DO UPDATE SET delta = delta + excluded.delta',
  );
  const portIds = c.db.prepare('SELECT p.id FROM ports p ORDER BY p.id').pluck().all() as number[];
  const idOf = new Map<string, number>();
  for (const r of c.db.prepare('SELECT id, node_guid AS g, port_num AS n FROM ports').all() as {
    id: number;
    g: string;
    n: number;
  }[])
    idOf.set(`${r.g}:${r.n}`, r.id);
  const ids = f.connected.map((p) => idOf.get(`${p.node.guid}:${p.port}`) ?? portIds[0]!);
  const repo = createCountersRepo(c.db);
  const scans = createScansRepo(c.db);
  const end = Date.now();
  const start = end - days * DAY;
  const rawText = tools.nextSweep();
  const gz = [gzipSync(rawText.errors), gzipSync(rawText.counters)];
  let rows = 0;
  // The hour's sums per port and counter (key: port id * 64 + counter id), written as the
  // rollups the collector's per-delta upsert leaves at the end of the hour.
  const hour = new Map<number, number>();
  const counterIds = new Map<string, number>();
  const cid = (k: string) => {
    let id = counterIds.get(k);
    if (id === undefined) counterIds.set(k, (id = repo.counterId(k)));
    if (id >= 64) throw new Error('db-size: more than 64 counter ids');
    return id;
  };
  // The same rows the collector's addDelta writes (counters-repo.ts), 256 to a statement.
  const deltaRows = new BatchInsert(
    c.db,
    'INSERT INTO counter_deltas (port_id, counter_id, at, interval_ms, delta, scan_id)',
    6,
    'ON CONFLICT (at, port_id, counter_id) DO UPDATE SET delta = delta + excluded.delta',
  );
  // A day of sweeps is one transaction here (the collector commits each sweep): with SQLite's
  // default 2 MB cache, the (port_id, at) index pages a day's deltas touch are spilled and read
  // back many times over, which made 45k take > 20 min. The bench's connection caches more; the
  // collector's cost of one sweep on the finished file is measured below (`sweepCost`).
  c.db.pragma('cache_size = -524288');
  // Bench-only build settings that leave the finished (VACUUMed) file as it would be: no fsync,
  // and counter_deltas' secondary indexes created after the last day instead of updated row by
  // row. A day of ~4.4M deltas at 45k lands at random places of the (port_id, at) and
  // (counter_id, at) indexes, so each day's commit rewrote most of both (> 40 min at 45k);
  // VACUUM rebuilds every index in key order anyway, so the VACUUMed size is the same both ways.
  // The table itself is keyed by time: its rows are appended either way.
  c.db.pragma('synchronous = OFF');
  const deferred = dropIndexes(c.db, 'counter_deltas');
  const scansS = (performance.now() - tBuild) / 1000;
  const t0 = performance.now();
  const sweeps = days * 1440;
  ctx.log(`db-size: writing ${sweeps} sweeps of sparse deltas (${days} d)`);
  for (let s0 = 0; s0 < sweeps; s0 += 1440) {
    c.db.transaction(() => {
      for (let s = s0; s < Math.min(sweeps, s0 + 1440); s++) {
        const at = start + s * MIN;
        const scanId = scans.start('pm', 'schedule', at);
        scans.finish(scanId, at + 900, {
          status: 'ok',
          warnings: [],
          toolVersions: { ibqueryerrors: '44.0' },
          summary: { ports: f.connected.length },
          error: null,
        });
        if (s % 60 === 0 && at > end - 3 * DAY) {
          scans.addRawOutput(scanId, 'ibqueryerrors-errors.txt', at, rawText.errors.length, gz[0]!);
          scans.addRawOutput(scanId, 'ibqueryerrors-counters.txt', at, rawText.counters.length, gz[1]!);
        }
        const raw = at > end - rawDays * DAY;
        // A sweep's interval is measured between two millisecond times: a whole number of seconds
        // is the exception; addDelta stores it as whole milliseconds (intervalMs, migration 0020).
        const intervalS = 60 + ((s * 7919) % 1000) / 1000;
        for (const [i, inc] of sweepIncrements(f, s)) {
          for (const k in inc) {
            const id = cid(k);
            if (raw) deltaRows.add(ids[i]!, id, at, intervalMs(intervalS), inc[k]!, scanId);
            const key = ids[i]! * 64 + id;
            hour.set(key, (hour.get(key) ?? 0) + inc[k]!);
            rows++;
          }
        }
        // Every hour's sums become its rollups (older sweeps' deltas are pruned, these stay).
        if (Math.floor((at + MIN) / 3_600_000) !== Math.floor(at / 3_600_000) || s === sweeps - 1) {
          deltaRows.flush();
          const h = Math.floor(at / 3_600_000) * 3_600_000;
          for (const [key, v] of hour) rollup.run(Math.floor(key / 64), key % 64, h, v);
          hour.clear();
        }
      }
    })();
  }
  const writeS = (performance.now() - t0) / 1000;
  const ti = performance.now();
  createIndexes(c.db, deferred);
  const indexS = (performance.now() - ti) / 1000;
  ctx.log(`db-size: sweeps written in ${writeS.toFixed(0)} s, indexes in ${indexS.toFixed(0)} s; traffic next`);
  const traffic = writeTraffic(c, days, end);
  c.db.pragma('wal_checkpoint(TRUNCATE)');
  const cost = sweepCost(c.config.dbFile, f, ids, sweeps, end);
  // The collector never VACUUMs: a live file keeps the pages freed by pruning and the slack of
  // index pages split by inserts. The size as written is said beside the VACUUMed figure; with
  // the deltas' indexes built at the end it is denser than a live file would be.
  const unvacuumed = statSync(c.config.dbFile).size;
  const tv = performance.now();
  c.db.exec('VACUUM');
  // In WAL mode the VACUUMed pages are in the WAL until a checkpoint copies them and truncates
  // the file: measured before that, the file still had its old size (5.06 GB for 4.94).
  c.db.pragma('wal_checkpoint(TRUNCATE)');
  const vacuumS = (performance.now() - tv) / 1000;
  const bytes = statSync(c.config.dbFile).size;
  const ts = performance.now();
  const split = dbSplit(c.db);
  const splitS = (performance.now() - ts) / 1000;
  const trafficBytes = split.filter((r) => r.name.startsWith('traffic_')).reduce((a, r) => a + r.bytes, 0);
  const gb = (b: number) => `${(b / 1e9).toFixed(2)} GB`;
  const count = (t: string) => c.db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
  const note =
    `without traffic ${gb(bytes - trafficBytes)}, traffic ${gb(trafficBytes)}; ${gb(unvacuumed)} before VACUUM ` +
    `(deltas' indexes built after the last day); ` +
    `${count('counter_deltas')} delta rows (${rawDays} d), ${count('counter_rollups')} ` +
    `rollups, ${count('scans')} scans, ${count('raw_outputs')} raw outputs; ${rows} deltas modelled, ` +
    `written in ${writeS.toFixed(0)} s; ${cost}; traffic: ${traffic.note}; by table and index: ${splitText(split)}; ` +
    `build: scans ${scansS.toFixed(0)} s, sweeps ${writeS.toFixed(0)} s, indexes ${indexS.toFixed(0)} s, ` +
    `traffic ${traffic.seconds.toFixed(0)} s, VACUUM ${vacuumS.toFixed(0)} s, split ${splitS.toFixed(0)} s`;
  const top = c.db
    .prepare('SELECT port_id AS id, COUNT(*) AS n FROM counter_rollups GROUP BY port_id ORDER BY n DESC LIMIT 1')
    .get() as { id: number; n: number };
  const p = c.db.prepare('SELECT node_guid AS guid, port_num AS port FROM ports WHERE id = ?').get(top.id) as {
    guid: string;
    port: number;
  };
  const deltas = c.db.prepare('SELECT COUNT(*) FROM counter_deltas WHERE port_id = ?').pluck().get(top.id) as number;
  c.db.close();
  ctx.log(`db-size: ${(bytes / 1e9).toFixed(2)} GB; ${note}`);
  return {
    file: c.config.dbFile,
    bytes,
    days,
    note,
    port: { ...p, points: `${top.n} hourly rollups, ${deltas} sweep deltas` },
  };
}

/**
 * What the collector pays to store one more sweep's deltas on the finished 30-day file: a new
 * connection with the collector's settings (openDb), counters-repo's addDelta per delta, one
 * transaction per sweep as pm-store writes it; rolled back, so the file keeps its 30 days.
 */
function sweepCost(file: string, f: BenchFabric, ids: readonly number[], next: number, end: number): string {
  const db = openDb(file);
  const repo = createCountersRepo(db);
  const times: number[] = [];
  let n = 0;
  try {
    for (let k = 0; k < 3; k++) {
      const inc = sweepIncrements(f, next + k);
      const t = performance.now();
      try {
        writeTransaction(db, () => {
          n = 0;
          for (const [i, o] of inc)
            for (const c in o) {
              repo.addDelta(ids[i]!, c, end + (k + 1) * MIN, 60, BigInt(o[c]!), 1);
              n++;
            }
          throw new RolledBack();
        });
      } catch (e) {
        if (!(e instanceof RolledBack)) throw e;
      }
      times.push(performance.now() - t);
    }
  } finally {
    db.close();
  }
  const ms = times.map((x) => x.toFixed(0)).join(' / ');
  return `one more sweep's ${n} deltas on this file with the collector's settings: ${ms} ms`;
}

class RolledBack extends Error {}
