/**
 * Database size of 30 days of 60-s sweeps with traffic (issue 17: < 5 GB at 10k GPUs; issue 19:
 * also at 45k, `--gpus 45000`). Method: the traffic tables are written with the collector's own
 * code (TrafficHour sums -> packed hourly chunks -> traffic-repo) for every hour of the window and
 * every cabled port of the generated fabric, each with non-zero traffic and XmitWait (the worst
 * case: no idle port is trimmed), plus the sweep-resolution rows of the busiest ports
 * (IBWATCH_TRAFFIC_RECENT_PORTS x 2 for IBWATCH_TRAFFIC_RECENT_HOURS of sweeps), on a database
 * holding the fabric's topology. The traffic's share is the VACUUMed file's growth; the total adds
 * the rest of a 30-day database as the db-size stage measured it in the same run (without that
 * stage, the rest is left out and the note says so).
 */
import { targetFor } from '../lib/targets.ts';
import { statSync } from 'node:fs';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { createTrafficRepo, type RecentRow } from '../../apps/collector/src/db/traffic-repo.ts';
import { TrafficHour } from '../../apps/collector/src/scans/traffic-hour.ts';
import { builtHistory } from './db-size.ts';
import { dbSplit, splitText } from '../lib/db-split.ts';

const HOUR = 3_600_000;

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
  const ids = c.db.prepare('SELECT id FROM ports WHERE remote_guid IS NOT NULL ORDER BY id').pluck().all() as number[];
  const maxId = ids.at(-1) ?? 0;
  const days = ctx.quick ? 3 : 30;
  const repo = createTrafficRepo(c.db);
  const hour = new TrafficHour();
  hour.ensure(maxId);
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const start = end - days * 24 * HOUR;
  const t0 = performance.now();
  ctx.log(`traffic-size: ${days} d of hourly traffic for ${ids.length} ports`);
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
  const trafficBytes = vacuumed() - before;
  const rows = c.db.prepare('SELECT COUNT(*) FROM traffic_hourly').pluck().get() as number;
  const split = splitText(dbSplit(c.db).filter((r) => r.name.startsWith('traffic_')));
  c.db.close();
  const history = await builtHistory();
  const total = trafficBytes + (history?.bytes ?? 0);
  const note =
    `traffic ${(trafficBytes / 1e9).toFixed(2)} GB (${rows} hourly chunks, ${busiest.length} ports x ${sweeps} ` +
    `sweeps at sweep resolution; written in ${writeS.toFixed(0)} s with traffic-hour.ts/traffic-repo.ts; ${split})` +
    (history
      ? ` + the db-size stage's ${(history.bytes / 1e9).toFixed(2)} GB`
      : '; the db-size stage did not run: the rest of the database is not included');
  ctx.log(`traffic-size: ${note}`);
  return [
    {
      stage: 'traffic-size',
      what: `database after ${days} d of 60-s sweeps incl. traffic (VACUUMed)`,
      size: sizeLabel(f),
      value: total / 1e9,
      unit: 'GB',
      runs: 1,
      // The 30-day target of the database with traffic; the 3 days of --quick get their share of it.
      target: { op: '<', value: (targetFor('db.size-30d', ctx.big).value * days) / 30 },
      note,
    },
  ];
};
