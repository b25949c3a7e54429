/**
 * Traffic's share of 30 days of 60-s sweeps (issue 17; issue 19: also at 45k, `--gpus 45000`).
 * Method: the traffic tables are written with the collector's own code (TrafficHour sums ->
 * packed hourly chunks -> traffic-repo) for every hour of the window and every cabled port of the
 * generated fabric, each with non-zero traffic and XmitWait (the worst case: no idle port is
 * trimmed), plus the sweep-resolution rows of the busiest ports (IBWATCH_TRAFFIC_RECENT_PORTS x 2
 * for IBWATCH_TRAFFIC_RECENT_HOURS of sweeps), on a database holding the fabric's topology. The
 * figure is the VACUUMed file's growth. The whole 30-day database, traffic included, is the
 * db-size stage's row: it writes the same traffic (`writeTraffic`) into its own file.
 */
import { targetFor } from '../lib/targets.ts';
import { statSync } from 'node:fs';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { createContext, type Context } from '../../apps/collector/src/context.ts';
import { createTrafficRepo, type RecentRow } from '../../apps/collector/src/db/traffic-repo.ts';
import { TrafficHour } from '../../apps/collector/src/scans/traffic-hour.ts';
import { dbSplit, splitText } from '../lib/db-split.ts';

const HOUR = 3_600_000;

/**
 * Writes `days` of hourly traffic up to the hour of `endMs` for every cabled port of `c`'s
 * database, and the sweep-resolution rows of the busiest ports; returns what it wrote.
 */
export function writeTraffic(
  c: Context,
  days: number,
  endMs: number,
): { chunks: number; seconds: number; note: string } {
  const ids = c.db.prepare('SELECT id FROM ports WHERE remote_guid IS NOT NULL ORDER BY id').pluck().all() as number[];
  const repo = createTrafficRepo(c.db);
  const hour = new TrafficHour();
  hour.ensure(ids.at(-1) ?? 0);
  const end = Math.floor(endMs / HOUR) * HOUR;
  const start = end - days * 24 * HOUR;
  const t0 = performance.now();
  for (let h = start; h < end; h += 24 * HOUR) {
    c.db.transaction(() => {
      for (let at = h; at < h + 24 * HOUR; at += HOUR) {
        hour.begin(at, []);
        // One sample per port stands for the hour's 60 sweeps: the slots are as wide either way.
        hour.n = 60;
        for (let k = 0; k < ids.length; k++) {
          // Varied, never zero: 0.01-100 % of the link each way and up to ~4M ticks/s waiting.
          const v = ((k * 2654435761 + at / HOUR) >>> 0) % 10_000;
          hour.add(ids[k]!, v + 1, 10_000 - v, v * 400 + 1);
        }
        repo.putChunks(at, hour.chunks());
        // The next hour's first sweep packs this one (traffic-store.ts, migration 0019).
        repo.packClosed(at + HOUR, 2);
      }
    })();
  }
  const t = c.config.traffic;
  const sweeps = t.recentHours * 60;
  const busiest = ids.slice(0, Math.min(ids.length, 2 * t.recentPorts));
  c.db.transaction(() => {
    for (let s = 0; s < sweeps; s++) {
      const rows: RecentRow[] = busiest.map((portId, k) => ({
        portId,
        txBps: 25e9 + k,
        rxBps: 12e9 + s,
        waitTps: 1_000_000 + k * s,
      }));
      repo.addRecent(end - (sweeps - s) * 60_000, rows);
    }
  })();
  const writeS = (performance.now() - t0) / 1000;
  const count = (t: string) => c.db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
  const chunks = count('traffic_hourly');
  const packed = count('traffic_packed');
  return {
    chunks,
    seconds: writeS,
    note:
      `${chunks} plain hourly chunks and ${packed} packed rows of 16 chunks, of ${ids.length} ports, ` +
      `${busiest.length} ports x ${sweeps} sweeps at sweep ` +
      `resolution; written in ${writeS.toFixed(0)} s with traffic-hour.ts/traffic-repo.ts`,
  };
}

export const trafficSizeStage: Stage = async (ctx) => {
  const f = benchFabric(ctx.big);
  const dir = ctx.tmp('traffic-size');
  const c = createContext(benchConfig(dir), { runner: new FakeFabricTools(f).runner() });
  await c.scans.run('topology', 'cli');
  const vacuumed = () => {
    c.db.pragma('wal_checkpoint(TRUNCATE)');
    c.db.exec('VACUUM');
    return statSync(c.config.dbFile).size;
  };
  const before = vacuumed();
  const days = ctx.quick ? 3 : 30;
  ctx.log(`traffic-size: ${days} d of hourly traffic`);
  const wrote = writeTraffic(c, days, Date.now());
  const trafficBytes = vacuumed() - before;
  const split = splitText(dbSplit(c.db).filter((r) => r.name.startsWith('traffic_')));
  c.db.close();
  const note =
    `traffic ${(trafficBytes / 1e9).toFixed(2)} GB (${wrote.note}; ${split}); ` +
    'the whole database is the db-size row';
  ctx.log(`traffic-size: ${note}`);
  return [
    {
      stage: 'traffic-size',
      what: `traffic alone: ${days} d of hourly traffic of every cabled port (VACUUMed growth)`,
      size: sizeLabel(f),
      value: trafficBytes / 1e9,
      unit: 'GB',
      runs: 1,
      // A part of the 30-day database: held to the whole database's target (the db-size row).
      target: { op: '<', value: (targetFor('db.size-30d', ctx.big).value * days) / 30 },
      note,
    },
  ];
};
