/**
 * `pnpm bench [--quick] [--only stage[,stage]] [--gpus N]`: generates 1k/4k/10k-GPU fabrics (and
 * N, the large one, with --gpus) with the lab's generator, the inputs ibwatch reads at that scale,
 * and measures every stage, each figure against its size band's target (lib/targets.ts;
 * `--targets` prints them). `--only cadence [--cadence-minutes 30]`: the 10-s PM cadence. Prints one table
 * (stage, size, median, floor and ratio where one is named, target, verdict: ok or MISSED) and
 * writes bench/out/results.json. --quick: the 4k fabric as the large one, fewer runs, 3 days of
 * history. Before any stage it builds the dashboard if it is stale and checks Chromium and the lab
 * tools for the stages that need them, stopping within seconds with the step that is missing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseBenchArgs } from './lib/args.ts';
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
import { cadenceStage } from './stages/cadence.ts';
import { targetsMarkdown } from './lib/targets.ts';

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
  cadence: cadenceStage,
};

/** Not in a plain `pnpm bench`: 30 minutes of 10-s sweeps; `--only cadence` runs it. */
const ON_REQUEST = new Set(['cadence']);

/** What a stage needs besides the workspace: the built SPA and Chromium, or the lab's tools. */
const NEEDS: Record<string, Need[]> = { serve: ['web', 'chromium'], 'live-lab': ['lab'] };

async function main(): Promise<number> {
  let args: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    return 2;
  }
  if (args.targets) {
    console.log(targetsMarkdown());
    return 0;
  }
  const only = args.only ?? Object.keys(STAGES).filter((s) => !ON_REQUEST.has(s));
  for (const s of only)
    if (!STAGES[s]) throw new Error(`unknown stage "${s}" (stages: ${Object.keys(STAGES).join(', ')})`);
  try {
    await preflight(only.flatMap((s) => NEEDS[s] ?? []));
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    return 2;
  }
  const dirs = tempDirs();
  const quick = args.quick;
  const ctx: StageCtx = {
    quick,
    big: args.big,
    sizes: args.sizes,
    runs: args.runs,
    cadenceMinutes: args.cadenceMinutes,
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
        gpus: args.sizes,
        node: process.version,
        totalS: (Date.now() - started) / 1000,
        rows: rows.map((r) => ({ ...r, verdict: verdict(r) })),
      },
      null,
      2,
    ),
  );
  console.log(table(rows, args.markdown));
  for (const r of rows) if (r.note) console.log(`  ${r.stage}: ${r.what}: ${r.note}`);
  console.log(
    `\n${rows.length} figures in ${((Date.now() - started) / 1000).toFixed(0)} s; results in bench/out/results.json`,
  );
  // Non-zero when a figure missed its target or a stage failed, so a script can tell.
  return failed || rows.some((r) => verdict(r) !== 'ok') ? 1 : 0;
}

runMain(main);
