/**
 * `ibwatch backup` and `ibwatch check-db` on the history database of the db-size stage (30 days
 * of sweeps at the large size; 3 days with --quick): the time of the online copy (which includes
 * the copy's integrity_check) and of a full check of the copy, and the copy's size.
 */
import { join } from 'node:path';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import type { Stage } from '../lib/stage.ts';
import { targetFor } from '../lib/targets.ts';
import { historyDb } from './db-size.ts';
import { backupDatabase } from '../../apps/collector/src/db/backup.ts';
import { checkDatabase } from '../../apps/collector/src/db/check-db.ts';

export const backupStage: Stage = async (ctx) => {
  const h = await historyDb(ctx);
  const size = sizeLabel(benchFabric(ctx.big));
  const file = join(ctx.tmp('backup'), 'copy.db');
  const t0 = performance.now();
  const r = await backupDatabase(h.file, file);
  const backupS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const check = checkDatabase(file);
  const checkS = (performance.now() - t1) / 1000;
  if (!check.ok) throw new Error(`check-db of the copy: ${check.problems.join('; ')}`);
  const days = `${h.days} d of history, ${(r.bytes / 1e9).toFixed(2)} GB`;
  // A nightly backup and the check before a restore within 5 minutes for the 30-day database
  // (the 3 days of --quick get their share of it).
  const target = { op: '<' as const, value: (targetFor('backup.30d', ctx.big).value * h.days) / 30 };
  return [
    {
      stage: 'backup',
      what: `ibwatch backup (copy + integrity_check), ${days}`,
      size,
      value: backupS,
      unit: 's',
      runs: 1,
      target,
    },
    { stage: 'backup', what: `ibwatch check-db of the copy, ${days}`, size, value: checkS, unit: 's', runs: 1, target },
  ];
};
