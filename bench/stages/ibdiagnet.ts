/**
 * Parse + analyse + store one full ibdiagnet run (the import path), target < 5 s, two ways:
 * - the first import of a fabric into an empty database (every node, port, link and counter
 *   baseline row is new: the most a run ever writes);
 * - the next hourly run of the same fabric into that database (what a running collector does
 *   every hour: the topology is known, counters become deltas against the first run).
 */
import { writeIbdiagnetDir } from '../../packages/parsers/bench/generate.ts';
import { type BenchFabric, benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, type Row } from '../lib/stats.ts';
import { targetFor } from '../lib/targets.ts';
import { type Context, createContext } from '../../apps/collector/src/context.ts';
import { createIbdiagnetRepo } from '../../apps/collector/src/db/ibdiagnet-repo.ts';
import { firmwareInventory } from '../../packages/fabric/src/firmware.ts';

/** Writes the fabric's first ibdiagnet run (`dir/run`) and the next hourly one (`dir/run-1h`). */
export async function writeRuns(dir: string, f: BenchFabric): Promise<void> {
  await writeIbdiagnetDir(`${dir}/run`, f);
  await writeIbdiagnetDir(`${dir}/run-1h`, f, 6, 1);
}

/** Imports both runs of `writeRuns` into `c`'s database; wall time of each import in ms. */
export async function importFirstAndHourly(c: Context, dir: string): Promise<{ first: number; hourly: number }> {
  const ms: number[] = [];
  for (const run of ['run', 'run-1h'] as const) {
    const t = performance.now();
    const row = await c.scans.importIbdiagnet(`${dir}/${run}`, 'cli');
    ms.push(performance.now() - t);
    if (row.status === 'failed') throw new Error(`ibdiagnet import failed: ${row.error}`);
    if (run === 'run-1h' && !row.summary['pm.ports']) throw new Error('the hourly run stored no counters');
    if (!row.summary['checks.firmware']) throw new Error(`the ${run} import stored no firmware`);
  }
  return { first: ms[0]!, hourly: ms[1]! };
}

/** The import rows of a fabric of `gpus` GPUs (also printed by bench:spot). */
export function importRows(gpus: number, size: string, first: number[], hourly: number[]): Row[] {
  const target = targetFor('ibdiagnet.import', gpus);
  return [
    {
      stage: 'ibdiagnet',
      what: 'first ibdiagnet run of a fabric into an empty database: parse + analyse + store',
      size,
      value: median(first),
      unit: 'ms',
      runs: first.length,
      target,
    },
    {
      stage: 'ibdiagnet',
      what: 'next hourly ibdiagnet run of the same fabric: parse + analyse + store',
      size,
      value: median(hourly),
      unit: 'ms',
      runs: hourly.length,
      target,
    },
  ];
}

export const ibdiagnetStage: Stage = async (ctx) => {
  const rows: Row[] = [];
  for (const gpus of ctx.sizes) {
    const f = benchFabric(gpus);
    const dir = ctx.tmp(`ibd-${gpus}`);
    await writeRuns(dir, f);
    const first: number[] = [];
    const hourly: number[] = [];
    const inventory: number[] = [];
    const runs = gpus === ctx.big ? Math.min(3, ctx.runs) : 1;
    for (let i = 0; i < runs; i++) {
      const c = createContext(
        benchConfig(`${dir}`, { IBWATCH_SOURCE: 'import-only', IBWATCH_DB: `${dir}/db-${i}.sqlite` }),
      );
      const t0 = await importFirstAndHourly(c, dir);
      first.push(t0.first);
      hourly.push(t0.hourly);
      // What GET /api/firmware costs when its cache is cold (after every import).
      const repo = createIbdiagnetRepo(c.db);
      const t = performance.now();
      const reply = firmwareInventory(repo.firmware(c.names), repo.unreported(), Date.now());
      inventory.push(performance.now() - t);
      if (reply.nodes !== f.switches.length + f.cas.length) throw new Error(`firmware of ${reply.nodes} nodes`);
      c.db.close();
    }
    // The band's target (lib/targets.ts); a smaller fabric is held to the 10k one.
    rows.push(...importRows(gpus, sizeLabel(f), first, hourly));
    rows.push({
      stage: 'ibdiagnet',
      what: 'firmware inventory (GET /api/firmware) built from the stored firmware',
      size: sizeLabel(f),
      value: median(inventory),
      unit: 'ms',
      runs,
      // Built once per database change and then served from the reply cache: a cold build is
      // what the first visitor after an hourly import waits for.
      target: targetFor('ibdiagnet.firmware', gpus),
    });
  }
  return rows;
};
