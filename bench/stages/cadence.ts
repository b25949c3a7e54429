/**
 * The 10-s PM cadence (issue 19): the real server on generated diags tools of the large fabric
 * (10k GPUs), sweeping every 10 s for `--cadence-minutes` (30 by default), and the collector's CPU
 * time (user + system, from /proc/<pid>/stat) per 10-s interval as a share of one core, after
 * its start-up scans. Not part of a plain `pnpm bench`: `pnpm bench --only cadence`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import type { Stage } from '../lib/stage.ts';
import { maxOf, median, percentile, type Row } from '../lib/stats.ts';
import { scansSince, startSweepingServer, waitForScan } from '../lib/sweeping-server.ts';
import { targetFor } from '../lib/targets.ts';
import { clockTicks, cpuSecondsOfStat, cpuShares } from '../lib/cpu.ts';

const PERIOD_S = 10;

export const cadenceStage: Stage = async (ctx) => {
  const f = benchFabric(ctx.big);
  const dir = ctx.tmp('cadence');
  const ticks = clockTicks();
  // Six sweeps cycling with the clock: every 10-s sweep sees new counters against the last.
  const { server, started } = await startSweepingServer({
    fabric: f,
    dbFile: join(dir, 'ibwatch.db'),
    toolDir: join(dir, 'tools'),
    periodS: PERIOD_S,
    sweeps: 6,
    log: (m) => ctx.log(`cadence: ${m}`),
  });
  const cpu = () => cpuSecondsOfStat(readFileSync(`/proc/${server.pid}/stat`, 'utf8'), ticks);
  try {
    await waitForScan(server.url, 'pm', started);
    const from = Date.now();
    const durationMs = ctx.cadenceMinutes * 60_000;
    ctx.log(`cadence: start-up scans done; sampling CPU every ${PERIOD_S} s for ${ctx.cadenceMinutes} min`);
    const samples: [number, number][] = [[performance.now() / 1000, cpu()]];
    while (Date.now() - from < durationMs) {
      await new Promise((r) => setTimeout(r, PERIOD_S * 1000));
      samples.push([performance.now() / 1000, cpu()]);
    }
    const shares = cpuShares(samples);
    const last = samples[samples.length - 1]!;
    const mean = (100 * (last[1] - samples[0]![1])) / (last[0] - samples[0]![0]);
    const sweeps = (await scansSince(server.url, 'pm', from, 1000)).filter((r) => r.status !== 'running');
    const failed = sweeps.filter((r) => r.status === 'failed').length;
    const expected = Math.floor(durationMs / (PERIOD_S * 1000));
    if (sweeps.length < expected / 2)
      throw new Error(`only ${sweeps.length} PM sweeps in ${ctx.cadenceMinutes} min (expected about ${expected})`);
    const ms = sweeps.map((r) => r.durationMs);
    return [
      {
        stage: 'cadence',
        what: `collector CPU per ${PERIOD_S}-s PM interval, ${ctx.cadenceMinutes} min (mean, % of one core)`,
        size: sizeLabel(f),
        value: mean,
        unit: '%',
        runs: shares.length,
        target: targetFor('cadence.cpu', ctx.big),
        note:
          `per interval: median ${median(shares).toFixed(1)}%, p95 ${percentile(shares, 95).toFixed(1)}%, ` +
          `max ${maxOf(shares).toFixed(1)}%; ${sweeps.length} sweeps (${failed} failed, about ${expected} ` +
          `ticks), sweep median ${median(ms).toFixed(0)} ms, max ${maxOf(ms).toFixed(0)} ms`,
      } satisfies Row,
    ];
  } finally {
    await server.stop();
  }
};
