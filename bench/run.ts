/**
 * `pnpm bench [--quick] [--gpus N] [--only stage[,stage]]`: generates 1k/4k/10k-GPU fabrics (the
 * large one N GPUs with --gpus, e.g. 45000) with the lab's generator, the inputs ibwatch reads at
 * that scale, and measures every stage. Prints one table
 * (stage, size, median, floor and ratio where one is named, target, verdict: ok or MISSED) and
 * writes bench/out/results.json. --quick: the 4k fabric as the large one, fewer runs, 3 days of
 * history. Before any stage it builds the dashboard if it is stale and checks Chromium and the lab
 * tools for the stages that need them, stopping within seconds with the step that is missing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Need, preflight } from './lib/preflight.ts';
import { runMain, tempDirs, type Stage, type StageCtx } from './lib/stage.ts';
import { table, verdict, type Row } from './lib/stats.ts';
import { parseStage } from './stages/parse.ts';
import { ibdiagnetStage } from './stages/ibdiagnet.ts';
import { pmStage } from './stages/pm.ts';
import { dbSizeStage } from './stages/db-size.ts';
import { ncclStage } from './stages/nccl.ts';
import { serveStage } from './stages/serve.ts';
import { liveLabStage } from './stages/live-lab.ts';
import { backupStage } from './stages/backup.ts';
import { metricsStage } from './stages/metrics.ts';
import { trafficSizeStage } from './stages/traffic-size.ts';

const STAGES: Record<string, Stage> = {
  parse: parseStage,
  ibdiagnet: ibdiagnetStage,
  pm: pmStage,
  'db-size': dbSizeStage,
  'traffic-size': trafficSizeStage,
  backup: backupStage,
  nccl: ncclStage,
  metrics: metricsStage,
  serve: serveStage,
  'live-lab': liveLabStage,
};

/** What a stage needs besides the workspace: the built SPA and Chromium, or the lab's tools. */
const NEEDS: Record<string, Need[]> = { serve: ['web', 'chromium'], 'live-lab': ['lab'] };

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      // The large fabric's size (default 10000; 4000 with --quick), e.g. --gpus 45000.
      gpus: { type: 'string' },
    },
  });
  const only = values.only ? values.only.split(',') : Object.keys(STAGES);
  for (const s of only)
    if (!STAGES[s]) throw new Error(`unknown stage "${s}" (stages: ${Object.keys(STAGES).join(', ')})`);
  try {
    await preflight(only.flatMap((s) => NEEDS[s] ?? []));
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    return 2;
  }
  const dirs = tempDirs();
  const quick = values.quick ?? false;
  const gpus = values.gpus === undefined ? undefined : Number(values.gpus);
  if (gpus !== undefined && !(Number.isInteger(gpus) && gpus >= 16)) {
    console.error(`bench: --gpus ${values.gpus}: expected a whole number of GPUs (16 or more)`);
    return 2;
  }
  const big = gpus ?? (quick ? 4000 : 10000);
  const ctx: StageCtx = {
    quick,
    big,
    sizes: [...(quick ? [1000, 4000] : [1000, 4000, 10000]).filter((s) => s < big), big],
    runs: quick ? 3 : 5,
    log: (m) => process.stderr.write(`[bench] ${m}\n`),
    tmp: dirs.make,
  };
  const rows: Row[] = [];
  const started = Date.now();
  let failed = 0;
  const onSignal = () => {
    dirs.cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const name of only) {
      const t = Date.now();
      ctx.log(`stage ${name}`);
      try {
        rows.push(...(await STAGES[name]!(ctx)));
      } catch (err) {
        failed++;
        ctx.log(`stage ${name} FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        rows.push({
          stage: name,
          what: `FAILED: ${err instanceof Error ? err.message.slice(0, 120) : String(err)}`,
          size: '',
          value: NaN,
          unit: 'ms',
          runs: 0,
          failed: true,
        });
      }
      ctx.log(`stage ${name} done in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    dirs.cleanup();
  }
  const out = resolve(import.meta.dirname, 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    resolve(out, 'results.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        quick,
        node: process.version,
        totalS: (Date.now() - started) / 1000,
        rows: rows.map((r) => ({ ...r, verdict: verdict(r) })),
      },
      null,
      2,
    ),
  );
  console.log(table(rows, values.markdown));
  for (const r of rows) if (r.note) console.log(`  ${r.stage}: ${r.what}: ${r.note}`);
  console.log(
    `\n${rows.length} figures in ${((Date.now() - started) / 1000).toFixed(0)} s; results in bench/out/results.json`,
  );
  // Non-zero when a figure missed its target or a stage failed, so a script can tell.
  return failed || rows.some((r) => verdict(r) !== 'ok') ? 1 : 0;
}

runMain(main);
