/**
 * A Prometheus scrape of `/metrics` on the large fabric (10k GPUs: ~69k ports), after a topology
 * scan, an SM scan and three PM sweeps of the generated tools (the later ones with the errors the
 * generator puts on a busy fabric's ports), through the app as server.ts builds it (inject: no
 * socket, so the figure is the collector's own work).
 * Each figure is a scrape right after a PM sweep, as Prometheus meets it (the per-port families
 * are rebuilt after each scan, off the scrape path, while someone scrapes); the note gives a
 * new collector's first scrape, which builds everything.
 * - IBWATCH_METRICS_PORTS=problem: the ports with errors or a link not ok (target < 200 ms);
 * - off (the default): state gauges and counters only;
 * - all: every port's raw counters (about 1.2 million samples), for what it costs: one cold run,
 *   as each is a 200 MB reply. Past ALL_PORTS_MAX ports (the largest subnet: 272k) the collector
 *   refuses that scrape with HTTP 500 and why; the row then times the refusal.
 * Targets: bench/lib/targets.ts (metrics.*).
 */
import { targetFor } from '../lib/targets.ts';
import { buildApp } from '../../apps/collector/src/app.ts';
import { ALL_PORTS_MAX } from '../../apps/collector/src/metrics/ports.ts';
import { createMetricsRepo } from '../../apps/collector/src/db/metrics-repo.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, times, type Row } from '../lib/stats.ts';

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
  const scrape = async (app: Awaited<ReturnType<typeof buildApp>>, status = 200): Promise<string> => {
    const r = await app.inject('/metrics');
    if (r.statusCode !== status) throw new Error(`/metrics answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
    return r.body;
  };
  // The count the collector compares with ALL_PORTS_MAX, from the same database.
  const exported = createMetricsRepo(c.db).allPortCount();
  // What the collector does after each scan (metrics/port-cache.ts): runs on the next turn.
  const afterScanWork = () => new Promise((resolve) => setImmediate(resolve));
  try {
    for (const mode of ['problem', 'off', 'all'] as const) {
      const app = await buildApp({ ...c, config: { ...config, metricsPorts: mode } });
      let body = '';
      // Cold: a new collector's first scrape builds everything on the scrape path.
      const refused = mode === 'all' && exported > ALL_PORTS_MAX;
      const cold = await times(1, async () => {
        body = await scrape(app, refused ? 500 : 200);
      });
      // Each run: a PM sweep through the scan service, the work the collector does after it,
      // then the scrape Prometheus makes. 'all' once: each is a 200 MB reply.
      const warm: number[] = [];
      if (mode !== 'all') {
        for (let i = 0; i < ctx.runs; i++) {
          const r = await c.scans.run('pm', 'cli');
          if (r.status === 'failed') throw new Error(`pm scan failed: ${r.error}`);
          await afterScanWork();
          const t = performance.now();
          body = await scrape(app);
          warm.push(performance.now() - t);
        }
      }
      // Not app.close(): it closes the database the next mode's app reads.
      const series = body.split('\n').filter((l) => l && !l.startsWith('#')).length;
      const figures = mode === 'all' ? cold : warm;
      rows.push({
        stage: 'metrics',
        what:
          `scrape /metrics, IBWATCH_METRICS_PORTS=${mode}` +
          (mode !== 'all' ? ', after a PM sweep' : refused ? `: refused above ${ALL_PORTS_MAX} ports (HTTP 500)` : ''),
        size: sizeLabel(f),
        value: median(figures),
        unit: 'ms',
        runs: figures.length,
        target: targetFor(`metrics.${mode}`, ctx.big),
        note: refused
          ? `the reply: "${body.trim().slice(0, 120)}..."`
          : `${series} series, ${(body.length / 1e6).toFixed(2)} MB; max ${Math.max(...figures).toFixed(0)} ms` +
            (mode === 'all' ? '' : `; a new collector's first scrape ${cold[0]!.toFixed(0)} ms`),
      });
    }
  } finally {
    c.db.close();
  }
  return rows;
};
