/**
 * Collection overhead on a live lab (ibsim + OpenSM, >= 4,000 GPUs): the two `ibqueryerrors` runs
 * of a PM sweep as a person runs them by hand (in parallel, each discovering the fabric itself,
 * with the lab's tool environment, their output read whole through a pipe) vs a full PM scan
 * through ibwatch (`ctx.scans.run('pm')`: one `ibnetdiscover --cache` fabric snapshot taken with
 * IBWATCH_OUTSTANDING_SMPS in flight, the same two runs loading it, their output parsed while
 * they still write it, then merged and stored). The bare runs keep the tools' defaults, as a
 * person types them; the note adds the bare pair with ibwatch's `-o`.
 * The figure is the median of the ratios of back-to-back pairs, the pair's order alternating: the
 * tools' own time swings by up to ±50% from run to run under ibsim, and a pair's two sides see the
 * same fabric and machine load. The note splits ibwatch's scans at their tool runs: before the
 * first spawn, the tools (the snapshot, then the two runs), after the last exit.
 */
import { execFile } from 'node:child_process';
import { startLab, stopLab } from '../../packages/lab/src/index.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, type Row } from '../lib/stats.ts';
import { ratioFor, targetFor } from '../lib/targets.ts';
import {
  medianRatio,
  medianSplit,
  recordingRunner,
  splitScan,
  type ScanSplit,
  type ToolSpan,
} from '../lib/tool-spans.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { createToolRunner } from '../../apps/collector/src/sources/tool-runner.ts';
import { toolEnvProvider } from '../../apps/collector/src/sources/tool-env.ts';

/**
 * One bare tool run; its output's length. A run that died of a signal nobody sent (under ibsim
 * ibqueryerrors dies of SIGSEGV in ~3% of runs) is run once more, within the pair's time, as the
 * collector does.
 */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string, retry = true): Promise<number> {
  return new Promise((res, rej) => {
    execFile(tool, args, { env, cwd, maxBuffer: 1 << 30, timeout: 120_000 }, (err, stdout) => {
      if (err && !stdout && err.signal && !err.killed && retry) res(run(tool, args, env, cwd, false));
      else if (err && !stdout) rej(err);
      else res(stdout.length);
    });
  });
}

/** The tools of one PM sweep through ibwatch: the fabric snapshot, then the two ibqueryerrors runs. */
const SWEEP_TOOLS = ['ibnetdiscover', 'ibqueryerrors'];

export const liveLabStage: Stage = async (ctx) => {
  const gpus = 4000;
  const dir = ctx.tmp('lab');
  ctx.log(`live-lab: pnpm lab up --gpus ${gpus} --tiers 3 in ${dir}`);
  const t0 = performance.now();
  const lab = await startLab({ dir, gpus, tiers: 3 });
  const upS = (performance.now() - t0) / 1000;
  try {
    const config = benchConfig(ctx.tmp('lab-db'), { IBWATCH_SOURCE: 'lab', IBWATCH_LAB_DIR: dir });
    const spans: ToolSpan[] = [];
    const runner = createToolRunner({ timeoutMs: config.toolTimeoutMs, maxOutputBytes: config.toolMaxOutputBytes });
    const c = createContext(config, { runner: recordingRunner(runner, spans) });
    const te = await toolEnvProvider(config)();
    for (const k of ['topology', 'sm', 'pm'] as const) {
      const r = await c.scans.run(k, 'cli');
      if (r.status === 'failed') throw new Error(`live lab ${k} scan failed: ${r.error}`);
    }
    const bare: number[] = [];
    const full: number[] = [];
    const splits: ScanSplit[] = [];
    const statuses: string[] = [];
    let warning = '';
    let bytes = 0;
    // By hand with the tools' defaults; `smpWindow` adds the discovery window ibwatch uses (`-o`).
    const runBare = async (into = bare, smpWindow: string[] = []) => {
      const t = performance.now();
      const out = await Promise.all([
        run('ibqueryerrors', ['--data', '--threshold-file', '/dev/null', ...smpWindow], te.env, te.cwd),
        run('ibqueryerrors', ['--counters', ...smpWindow], te.env, te.cwd),
      ]);
      into.push(performance.now() - t);
      bytes = out[0] + out[1];
    };
    const runFull = async () => {
      const t = performance.now();
      const r = await c.scans.run('pm', 'cli');
      const end = performance.now();
      full.push(end - t);
      if (r.status === 'failed') throw new Error(`live lab pm scan failed: ${r.error}`);
      // A partial sweep (any warning) also keeps its raw output, gzipped: say so.
      statuses.push(r.status);
      if (r.warnings[0] && !warning) warning = r.warnings[0];
      const s = splitScan(spans, SWEEP_TOOLS, t, end);
      if (s) splits.push(s);
    };
    for (let i = 0; i < ctx.runs; i++) {
      // Alternating order: neither side always runs on the fabric the other just swept.
      if (i % 2 === 0) {
        await runBare();
        await runFull();
      } else {
        await runFull();
        await runBare();
      }
      // Each pair as it ends: a later tool timeout fails the stage, and these are then all there is.
      const sp = splits.length === i + 1 ? splits[i] : undefined;
      ctx.log(
        `live-lab: pair ${i + 1}: ibwatch ${full[i]!.toFixed(0)} ms (${statuses[i]}` +
          (sp ? `; ${sp.beforeMs.toFixed(0)} + ${sp.toolsMs.toFixed(0)} + ${sp.afterMs.toFixed(0)} ms` : '') +
          `), bare ${bare[i]!.toFixed(0)} ms`,
      );
    }
    // For the note: the same two runs by hand with ibwatch's discovery window, to tell what the
    // window buys from what the shared snapshot and ibwatch itself cost.
    const windowed: number[] = [];
    for (let i = 0; i < ctx.runs; i++) await runBare(windowed, ['-o', String(config.outstandingSmps)]);
    c.db.close();
    const s = lab.state.counts;
    const size =
      `${gpus / 1000}k GPU lab: ${s.switches} sw, ${s.cas} HCA, ${s.links} links; ` +
      `${(bytes / 1e6).toFixed(0)} MB tool output`;
    const sp = medianSplit(splits);
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    const quoted = warning ? `; "${warning.slice(0, 80)}"` : '';
    const rows: Row[] = [
      {
        stage: 'live-lab',
        what: 'full PM sweep through ibwatch / ibqueryerrors x2 by hand (median of back-to-back pairs)',
        size,
        value: medianRatio(full, bare),
        unit: 'x',
        runs: ctx.runs,
        // Strict, as a ratio bound is: 1.00x is MISSED.
        target: { op: '<', value: ratioFor('live-lab.ratio', gpus) },
        note:
          `medians: through ibwatch ${ms(median(full))}, bare ${ms(median(bare))} (the tools' default of ` +
          `2 SMPs in flight; with ibwatch's -o ${config.outstandingSmps}: ${ms(median(windowed))}); ` +
          `ibwatch's scans split: ` +
          `${ms(sp.beforeMs)} to the first spawn, ${ms(sp.toolsMs)} of tool runs, ${ms(sp.afterMs)} after ` +
          `the last exit (${splits.length} scans, each a fabric snapshot and two runs loading it; ` +
          `${statuses.join(', ')}${quoted}); ` +
          `pairs ${full.map((f, i) => `${ms(f)}/${ms(bare[i]!)}`).join(', ')}`,
      },
      {
        stage: 'live-lab',
        what: 'lab bring-up (ibsim + 2 OpenSM, SUBNET UP)',
        size,
        value: upS,
        unit: 's',
        runs: 1,
        // The bound the lab's own tests give a bring-up.
        target: targetFor('live-lab.bring-up', gpus),
      },
    ];
    return rows;
  } finally {
    await stopLab(dir);
  }
};
