import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import cron from 'node-cron';
import { writeTransaction, type Db } from '../db/open-db.ts';
import type { Config } from '../config.ts';
import { createCountersRepo } from '../db/counters-repo.ts';
import { deleteExpired } from '../db/retention-repo.ts';
import { createTrafficRepo } from '../db/traffic-repo.ts';

/**
 * Retention: raw per-sweep deltas for days, hourly rollups for a year, raw tool output and
 * old scan rows for their own windows (all configurable). Deleting in one transaction keeps
 * the database consistent if the process dies mid-way.
 */
export function pruneOnce(db: Db, config: Config, now = Date.now()): Record<string, number> {
  const r = config.retention;
  return writeTransaction(db, () => {
    const counters = createCountersRepo(db).prune(now, r.rawDeltaDays, r.rollupDays);
    const day = 86_400_000;
    const rows = deleteExpired(db, {
      rawOutputs: now - r.rawOutputDays * day,
      stateHistory: now - r.rollupDays * day,
      smObservations: now - r.rawDeltaDays * day,
      scans: now - r.scanDays * day,
      // Resolved findings and SM events are history: kept as long as the hourly rollups.
      resolvedFindings: now - r.rollupDays * day,
      smEvents: now - r.rollupDays * day,
    });
    // Traffic hours are kept like the hourly rollups unless IBWATCH_RETENTION_TRAFFIC_DAYS says otherwise.
    const traffic = createTrafficRepo(db).pruneHourly(now - r.trafficDays * day);
    return { deltas: counters.deltas, rollups: counters.rollups, trafficHours: traffic, ...rows };
  });
}

/**
 * Live ibdiagnet runs each leave a timestamped output directory (a few MB at 10k GPUs); they are
 * kept as long as raw tool output, then removed. Only directories ibwatch named are touched.
 */
export function pruneIbdiagnetDirs(config: Config, now = Date.now()): number {
  if (!existsSync(config.ibdiagnetOutDir)) return 0;
  let removed = 0;
  for (const name of readdirSync(config.ibdiagnetOutDir)) {
    // collectIbdiagnet names them after the ISO time with ':' and '.' replaced: 2026-11-29T19-05-17-123Z
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.test(name)) continue;
    const path = join(config.ibdiagnetOutDir, name);
    if (statSync(path).mtimeMs < now - config.retention.rawOutputDays * 86_400_000) {
      rmSync(path, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

export function startMaintenance(
  db: Db,
  config: Config,
  log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void },
) {
  const task = cron.schedule(
    '17 3 * * * *',
    () => {
      try {
        log.info({ pruned: pruneOnce(db, config), ibdiagnetDirs: pruneIbdiagnetDirs(config) }, 'retention');
      } catch (err) {
        log.warn({ err }, 'retention failed');
      }
    },
    { name: 'ibwatch-retention', noOverlap: true },
  );
  return { stop: () => task.destroy() };
}
