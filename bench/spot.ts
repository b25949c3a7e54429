/**
 * `pnpm bench:spot [--gpus 10000] [--runs 4] [--load-seconds 20] [--client both|socket]`: the
 * spot check of the scale figures, at any size up to the largest subnet (--gpus 45000), without
 * the 30-day database of `pnpm bench`. Through the real code paths, each figure against its size band's target
 * (lib/targets.ts) with ok or MISSED:
 * - ibdiagnet import: the fabric's first run into an empty database and the next hourly run
 *   (parse + analyse + store), into the database the server then serves;
 * - PM sweep ingest: the pm stage at this size (storePm against the sweep's raw insert, and the
 *   whole scan: parse both ibqueryerrors outputs + store, the generated tools in process);
 * - the real server on that database, sweeping every 20 s through generated tools on its PATH:
 *   API p95 under the band's concurrent clients (50 from 32k GPUs) for --load-seconds per
 *   endpoint (summary, worklist, findings, topology, one port's history; raw-socket clients in
 *   worker threads, then the older one-thread http client unless --client socket), the
 *   `/metrics` scrape with problem ports (p95 of 20 scrapes at random moments of the sweep
 *   cycle), the server's RSS sampled for the whole run, and in Debian Chromium the topology's
 *   navigation to first frame, pan/zoom frame time and the overview's first paint.
 * Builds the dashboard first when it is stale, and stops within seconds when Chromium is missing.
 */
import { join } from 'node:path';
import { loadConfig } from '../apps/collector/src/config.ts';
import { createContext } from '../apps/collector/src/context.ts';
import { benchFabric, sizeLabel } from '../packages/parsers/bench/fabric.ts';
import { sweepIncrements } from '../packages/parsers/bench/sweeps.ts';
import { parseSpotArgs, type SpotArgs } from './lib/args.ts';
import { launchChromium, measureTopology, overviewFirstPaint } from './lib/browser.ts';
import { preflight, WEB_DIST } from './lib/preflight.ts';
import { sampleRss } from './lib/server.ts';
import { runMain, type StageCtx, tempDirs } from './lib/stage.ts';
import { median, type Row, table, verdict } from './lib/stats.ts';
import { scrapeAtRandom, scrapeRow } from './lib/scrapes.ts';
import { startSweepingServer, waitForScan } from './lib/sweeping-server.ts';
import { targetFor } from './lib/targets.ts';
import { importFirstAndHourly, importRows, writeRuns } from './stages/ibdiagnet.ts';
import { pmStage } from './stages/pm.ts';
import { apiRows, rssRow, sweepRows, topologyRows } from './stages/serve.ts';

async function main(): Promise<number> {
  let args: SpotArgs;
  try {
    args = parseSpotArgs(process.argv.slice(2));
    await preflight(['chromium', 'web']);
  } catch (err) {
    console.error(`bench:spot: ${(err as Error).message}`);
    return 2;
  }
  const { gpus, runs } = args;
  const dirs = tempDirs();
  const ctx: StageCtx = {
    quick: false,
    big: gpus,
    sizes: [gpus],
    runs,
    cadenceMinutes: 0,
    log: (m) => process.stderr.write(`[spot] ${m}\n`),
    tmp: dirs.make,
  };
  const rows: Row[] = [];
  try {
    const fabric = benchFabric(gpus);
    const size = sizeLabel(fabric);
    const dir = ctx.tmp('spot');
    ctx.log(`${size}: writing the first and the hourly ibdiagnet run`);
    await writeRuns(dir, fabric);
    const config = loadConfig({
      IBWATCH_SOURCE: 'import-only',
      IBWATCH_DB: join(dir, 'ib.db'),
      IBWATCH_EXPECTED_RATE: '4X HDR',
      IBWATCH_WEB_DIST: WEB_DIST,
    });
    const c = createContext(config);
    const imported = await importFirstAndHourly(c, dir);
    c.db.close();
    rows.push(...importRows(gpus, size, [imported.first], [imported.hourly]));

    ctx.log('PM sweep ingest (the pm stage at this size)');
    rows.push(...(await pmStage(ctx)));

    rows.push(...(await serverRows(ctx, args, config.dbFile, size)));
  } finally {
    dirs.cleanup();
  }
  console.log(table(rows, args.markdown));
  for (const r of rows) if (r.note) console.log(`  ${r.stage}: ${r.what}: ${r.note}`);
  return rows.every((r) => verdict(r) === 'ok') ? 0 : 1;
}

/** Scrapes of `/metrics` at random moments: enough that its p95 is more than its luckiest two. */
const METRICS_SCRAPES = 20;

/** The server's figures: API under load while sweeping, /metrics, RSS, and the browser's. */
async function serverRows(ctx: StageCtx, args: SpotArgs, dbFile: string, size: string): Promise<Row[]> {
  const { gpus, runs } = args;
  const fabric = benchFabric(gpus);
  const { server, started } = await startSweepingServer({
    fabric,
    dbFile,
    toolDir: ctx.tmp('tools'),
    periodS: 20,
    env: { IBWATCH_METRICS_PORTS: 'problem' },
    log: ctx.log,
  });
  const rss = sampleRss(server.pid);
  const rows: Row[] = [];
  try {
    await waitForScan(server.url, 'pm', started);
    const startup = rss.peek().length;
    ctx.log(`start-up scans done after ${((Date.now() - started) / 1000).toFixed(1)} s; loading the API`);
    // A port of the sweep model's marginal pool: symbol errors on most sweeps, so a history.
    const i = [...sweepIncrements(fabric, 0)].find(([, inc]) => inc.SymbolErrorCounter)?.[0] ?? 0;
    const p = fabric.connected[i]!;
    rows.push(
      ...(await apiRows(server.url, gpus, size, {
        n: 200,
        durationMs: args.loadSeconds * 1000,
        history: {
          path: `/api/ports/${p.node.guid}/${p.port}/counters?range=24h`,
          size,
          what: `one port's 24-h counter history (${p.node.name}/${p.port})`,
        },
        serverPid: server.pid,
        oldClient: args.oldClient,
      })),
    );
    let body = '';
    // Prometheus scrapes whenever its interval says: scrapes at random moments of the 20-s
    // sweep cycle (lib/scrapes.ts), a first one unmeasured to warm the per-port cache.
    const scrape = async () => {
      const r = await fetch(`${server.url}/metrics`);
      if (!r.ok) throw new Error(`/metrics answered ${r.status}`);
      body = await r.text();
    };
    await scrape();
    ctx.log(`/metrics: ${METRICS_SCRAPES} scrapes at random moments over ~${(METRICS_SCRAPES * 7.5).toFixed(0)} s`);
    const scrapes = await scrapeAtRandom(METRICS_SCRAPES, 15_000, scrape);
    rows.push(
      scrapeRow(
        {
          stage: 'metrics',
          what: 'scrape /metrics over HTTP while sweeping, IBWATCH_METRICS_PORTS=problem',
          size,
          target: targetFor('metrics.problem', gpus),
        },
        scrapes.ms,
        `${series(body)} series; all ${scrapes.ms.map((x) => x.toFixed(0)).join(', ')} ms`,
      ),
    );

    const browser = await launchChromium();
    try {
      const nav: number[] = [];
      const first: number[] = [];
      const frames: number[] = [];
      const fcp: number[] = [];
      const status: number[] = [];
      for (let k = 0; k < runs; k++) {
        const t = await measureTopology(browser, server.url, 5);
        nav.push(t.navigationMs);
        first.push(t.firstRenderMs);
        frames.push(...t.frameMs);
        const paint = await overviewFirstPaint(browser, server.url);
        fcp.push(paint.fcpMs);
        status.push(paint.statusMs);
      }
      rows.push(...topologyRows(gpus, size, nav, first, frames));
      rows.push({
        stage: 'render',
        what: 'overview: first contentful paint',
        size,
        value: median(fcp),
        unit: 'ms',
        runs: fcp.length,
        target: targetFor('render.fcp', gpus),
        note: `runs ${fcp.map((x) => x.toFixed(0)).join(', ')} ms`,
      });
      rows.push({
        stage: 'render',
        what: "overview: the fabric's status word in the page",
        size,
        value: median(status),
        unit: 'ms',
        runs: status.length,
        target: targetFor('render.status', gpus),
        note: `runs ${status.map((x) => x.toFixed(0)).join(', ')} ms`,
      });
    } finally {
      await browser.close();
    }
    rows.push(...(await sweepRows(server.url, started, gpus, size)));
    rows.push(rssRow(rss.stop(), startup, gpus, size));
  } finally {
    rss.stop();
    await server.stop();
  }
  return rows;
}

/** Samples in a Prometheus text exposition (lines that are neither empty nor comments). */
const series = (body: string): number => body.split('\n').filter((l) => l && !l.startsWith('#')).length;

runMain(main);
