/**
 * Collection overhead on a live lab (ibsim + OpenSM, >= 4,000 GPUs): the two bare
 * `ibqueryerrors` runs a PM sweep needs (in parallel, as the collector runs them, with the lab's
 * tool environment) vs a full PM scan through ibwatch (`ctx.scans.run('pm')`: the same tool runs
 * + parse + store). Runs are interleaved so fabric noise hits both alike.
 */
import { execFile } from 'node:child_process';
import { startLab, stopLab } from '../../packages/lab/src/index.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, type Row } from '../lib/stats.ts';
import { ratioFor, targetFor } from '../lib/targets.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { toolEnvProvider } from '../../apps/collector/src/sources/tool-env.ts';

function run(tool: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<number> {
  return new Promise((res, rej) => {
    execFile(tool, args, { env, cwd, maxBuffer: 1 << 30, timeout: 120_000 }, (err, stdout) => {
      if (err && !stdout) rej(err);
      else res(stdout.length);
    });
  });
}

export const liveLabStage: Stage = async (ctx) => {
  const gpus = 4000;
  const dir = ctx.tmp('lab');
  ctx.log(`live-lab: pnpm lab up --gpus ${gpus} --tiers 3 in ${dir}`);
  const t0 = performance.now();
  const lab = await startLab({ dir, gpus, tiers: 3 });
  const upS = (performance.now() - t0) / 1000;
  try {
    const config = benchConfig(ctx.tmp('lab-db'), { IBWATCH_SOURCE: 'lab', IBWATCH_LAB_DIR: dir });
    const c = createContext(config);
    const te = await toolEnvProvider(config)();
    for (const k of ['topology', 'sm', 'pm'] as const) {
      const r = await c.scans.run(k, 'cli');
      if (r.status === 'failed') throw new Error(`live lab ${k} scan failed: ${r.error}`);
    }
    const bare: number[] = [];
    const full: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ctx.runs; i++) {
      let t = performance.now();
      const out = await Promise.all([
        run('ibqueryerrors', ['--data', '--threshold-file', '/dev/null'], te.env, te.cwd),
        run('ibqueryerrors', ['--counters'], te.env, te.cwd),
      ]);
      bare.push(performance.now() - t);
      bytes = out[0] + out[1];
      t = performance.now();
      const r = await c.scans.run('pm', 'cli');
      full.push(performance.now() - t);
      if (r.status === 'failed') throw new Error(`live lab pm scan failed: ${r.error}`);
    }
    c.db.close();
    const s = lab.state.counts;
    const size =
      `${gpus / 1000}k GPU lab: ${s.switches} sw, ${s.cas} HCA, ${s.links} links; ` +
      `${(bytes / 1e6).toFixed(0)} MB tool output`;
    const rows: Row[] = [
      {
        stage: 'live-lab',
        what: 'full PM sweep through ibwatch vs bare tool runs',
        size,
        value: median(full),
        unit: 'ms',
        runs: ctx.runs,
        floor: { what: 'bare ibqueryerrors x2', value: median(bare) },
        ratioMax: ratioFor('live-lab.ratio', gpus),
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
