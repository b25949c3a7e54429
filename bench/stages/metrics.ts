/**
 * A Prometheus scrape of `/metrics` on the large fabric (10k GPUs: ~69k ports), after a topology
 * scan, an SM scan and three PM sweeps of the generated tools (the later ones with the errors the
 * generator puts on a busy fabric's ports), through the app as server.ts builds it (inject: no
 * socket, so the figure is the collector's own work).
 * - IBWATCH_METRICS_PORTS=problem: the ports with errors or a link not ok (target < 200 ms);
 * - off (the default): state gauges and counters only;
 * - all: every port's raw counters (about 1.2 million samples), for what it costs.
 */
import { buildApp } from '../../apps/collector/src/app.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, times, type Row } from '../lib/stats.ts';

// problem: issue 17's target. all: Prometheus' default scrape_timeout (10 s); one run, no
// warm-up, as each is a 200 MB reply.
const TARGETS: Record<string, number> = { off: 200, problem: 200, all: 10_000 };

export const metricsStage: Stage = async (ctx) => {
  const f = benchFabric(ctx.big);
  const tools = new FakeFabricTools(f);
  const dir = ctx.tmp('metrics');
  const config = benchConfig(dir, { IBWATCH_WEB_DIST: `${dir}/no-web` });
  const c = createContext(config, { runner: tools.runner() });
  ctx.log(`metrics: ${ctx.big / 1000}k GPUs, topology + sm + 3 PM sweeps`);
  for (const k of ['topology', 'sm', 'pm', 'pm', 'pm'] as const) {
    const r = await c.scans.run(k, 'cli');
    if (r.status === 'failed') throw new Error(`${k} scan failed: ${r.error}`);
  }
  const rows: Row[] = [];
  try {
    for (const mode of ['problem', 'off', 'all'] as const) {
      const app = await buildApp({ ...c, config: { ...config, metricsPorts: mode } });
      let body = '';
      const ms = await times(
        mode === 'all' ? 1 : ctx.runs,
        async () => {
          const r = await app.inject('/metrics');
          if (r.statusCode !== 200) throw new Error(`/metrics answered ${r.statusCode}`);
          body = r.body;
        },
        mode === 'all' ? 0 : 1,
      );
      // Not app.close(): it closes the database the next mode's app reads.
      const series = body.split('\n').filter((l) => l && !l.startsWith('#')).length;
      rows.push({
        stage: 'metrics',
        what: `scrape /metrics, IBWATCH_METRICS_PORTS=${mode}`,
        size: sizeLabel(f),
        value: median(ms),
        unit: 'ms',
        runs: ms.length,
        target: { op: '<', value: TARGETS[mode]! },
        note: `${series} series, ${(body.length / 1e6).toFixed(2)} MB; max ${Math.max(...ms).toFixed(0)} ms`,
      });
    }
  } finally {
    c.db.close();
  }
  return rows;
};
