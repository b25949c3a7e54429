/** Parse + analyse + store one full ibdiagnet run (the import path), target < 5 s. */
import { writeIbdiagnetDir } from '../gen/ibdiagnet.ts';
import { benchFabric, sizeLabel } from '../lib/fabric.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, type Row } from '../lib/stats.ts';
import { createContext } from '../../apps/collector/src/context.ts';

export const ibdiagnetStage: Stage = async (ctx) => {
  const rows: Row[] = [];
  for (const gpus of ctx.sizes) {
    const f = benchFabric(gpus);
    const dir = ctx.tmp(`ibd-${gpus}`);
    await writeIbdiagnetDir(`${dir}/run`, f);
    const ms: number[] = [];
    const runs = gpus === ctx.big ? 3 : 1;
    for (let i = 0; i < runs; i++) {
      // A fresh database each time: the first import of a fabric is the expensive one (every row new).
      const c = createContext(benchConfig(`${dir}`, { IBWATCH_SOURCE: 'import-only', IBWATCH_DB: `${dir}/db-${i}.sqlite` }));
      const t = performance.now();
      const row = await c.scans.importIbdiagnet(`${dir}/run`, 'cli');
      ms.push(performance.now() - t);
      if (row.status === 'failed') throw new Error(`ibdiagnet import failed: ${row.error}`);
      c.db.close();
    }
    rows.push({ stage: 'ibdiagnet', what: 'parse + analyse + store one ibdiagnet run', size: sizeLabel(f), value: median(ms), unit: 'ms', runs,
      ...(gpus === ctx.big ? { target: { op: '<' as const, value: 5000 } } : {}) });
  }
  return rows;
};
