/**
 * The real server (`apps/collector/src/server.ts`) on the 30-day database of the db-size stage
 * (or a 3-day one), with generated diags tools on PATH so it sweeps on its own schedule:
 * API latency under 20 concurrent clients, one port's 30-day history, RSS while serving and
 * sweeping, and the topology page in headless Chromium.
 */
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import type { Stage, StageCtx } from '../lib/stage.ts';
import { median, percentile, type Row } from '../lib/stats.ts';
import { launchChromium, measureTopology } from '../lib/browser.ts';
import { freePort, load, sampleRss, startServer, type Server } from '../lib/server.ts';
import { historyDb } from './db-size.ts';

const CLIENTS = 20;
/** Math.max(...xs) overflows the stack on the ~100k latencies of a 30-s load. */
const maxOf = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity);

export const serveStage: Stage = async (ctx) => {
  const f = benchFabric(ctx.big);
  const db = await historyDb(ctx);
  const tools = new FakeFabricTools(f);
  const bin = tools.writeScripts(ctx.tmp('tools'), 4, 20);
  const port = await freePort();
  ctx.log(`serve: starting the collector on :${port} (sweeps every 20 s)`);
  const started = Date.now();
  const server = await startServer(
    {
      IBWATCH_SOURCE: 'diags',
      IBWATCH_DB: db.file,
      PATH: `${bin}:${process.env.PATH}`,
      IBWATCH_EXPECTED_RATE: '4X HDR',
      IBWATCH_CRON_PM: '*/20 * * * * *',
      IBWATCH_CRON_SM: '10 * * * * *',
      IBWATCH_CRON_TOPOLOGY: '0 0 */6 * * *',
      IBWATCH_JITTER_MS: '0',
      IBWATCH_TOKEN: 'bench-token-0123456789abcdef',
    },
    port,
  );
  const rss = sampleRss(server.pid);
  const rows: Row[] = [];
  try {
    // Steady state: the collector's start-up scans (a topology scan of the whole fabric, then
    // the first PM sweep against the stored baseline) are done; sweeps go on every 20 s while
    // the clients run.
    await waitForScan(server.url, 'pm', started);
    const startupRss = rss.peek();
    ctx.log(
      `serve: start-up scans done after ${((Date.now() - started) / 1000).toFixed(1)} s; RSS max so far ` +
        `${maxOf(startupRss).toFixed(0)} MB`,
    );
    const size = sizeLabel(f);
    // Each endpoint is loaded for longer than one sweep period (20 s), so that the share of
    // requests a sweep's stall delays is what it would be in steady state. (Over a short burst
    // of a few hundred requests, p95 was just "did a sweep start during the burst".)
    const n = ctx.quick ? 100 : 400;
    const durationMs = ctx.quick ? 10_000 : 30_000;
    const endpoints: [string, string][] = [
      ['overview', '/api/summary'],
      ['worklist', '/api/worklist'],
      ['findings', '/api/findings'],
      ['topology', '/api/topology'],
    ];
    const tail = (lat: number[]) =>
      `p50 ${median(lat).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms, max ${maxOf(lat).toFixed(0)} ms`;
    for (const [name, path] of endpoints) {
      await load(server.url, path, 2, 4); // warm-up
      const lat = await load(server.url, path, CLIENTS, n, durationMs);
      rows.push({
        stage: 'api',
        what: `${name} (${path}) p95, ${CLIENTS} clients`,
        size,
        value: percentile(lat, 95),
        unit: 'ms',
        runs: lat.length,
        target: { op: '<', value: 100 },
        note: tail(lat),
      });
    }
    const hist = `/api/ports/${db.port.guid}/${db.port.port}/counters?range=30d`;
    const lat = await load(server.url, hist, CLIENTS, n, durationMs);
    rows.push({
      stage: 'api',
      what: `one port's 30-day counter history p95, ${CLIENTS} clients`,
      size: db.port.points,
      value: percentile(lat, 95),
      unit: 'ms',
      runs: lat.length,
      target: { op: '<', value: 30 },
      note: tail(lat),
    });
    rows.push(...(await render(ctx, server, size)));
    const sweeps = (
      (await (await fetch(`${server.url}/api/scans?kind=pm&limit=50`)).json()) as {
        startedAt: number;
        status: string;
        durationMs: number;
      }[]
    )
      .filter((r) => r.startedAt >= started && r.status !== 'running' && r.status !== 'failed')
      .map((r) => r.durationMs);
    if (sweeps.length) {
      rows.push({
        stage: 'api',
        what: 'PM scan in the server meanwhile (tools + parse + store, 30-day database)',
        size,
        value: median(sweeps),
        unit: 'ms',
        runs: sweeps.length,
        // A sweep must end well inside the stage's 20-s sweep period.
        target: { op: '<', value: 10_000 },
        note: `max ${maxOf(sweeps)} ms`,
      });
    }
    const xs = rss.stop();
    rows.push({
      stage: 'rss',
      what: 'collector RSS while serving + sweeping (max)',
      size,
      value: maxOf(xs),
      unit: 'MB',
      runs: xs.length,
      target: { op: '<', value: 500 },
      note:
        `median ${median(xs).toFixed(0)} MB; start-up (topology scan + first sweep) max ` +
        `${maxOf(startupRss).toFixed(0)} MB, after start-up max ${maxOf(xs.slice(startupRss.length)).toFixed(0)} MB`,
    });
  } finally {
    rss.stop();
    await server.stop();
  }
  return rows;
};

/** Waits until a scan of `kind` that started after `since` has finished. */
async function waitForScan(url: string, kind: string, since: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const rows = (await (await fetch(`${url}/api/scans?kind=${kind}&limit=5`)).json()) as {
      startedAt: number;
      status: string;
    }[];
    if (rows.some((r) => r.startedAt >= since && r.status !== 'running')) return;
    if (Date.now() > deadline) throw new Error(`no ${kind} scan finished within 300 s of start`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function render(ctx: StageCtx, server: Server, size: string): Promise<Row[]> {
  const browser = await launchChromium();
  const first: number[] = [];
  const nav: number[] = [];
  const frames: number[] = [];
  try {
    for (let i = 0; i < (ctx.quick ? 2 : 3); i++) {
      const t = await measureTopology(browser, server.url, 10);
      nav.push(t.navigationMs);
      first.push(t.firstRenderMs);
      frames.push(...t.frameMs);
    }
  } finally {
    await browser.close();
  }
  return topologyRows(size, nav, first, frames);
}

/** The topology view's figures and their targets (also printed by bench:spot). */
export function topologyRows(size: string, nav: number[], first: number[], frames: number[]): Row[] {
  return [
    {
      stage: 'render',
      what: 'topology view: first render (canvas)',
      size,
      value: median(first),
      unit: 'ms',
      runs: first.length,
      target: { op: '<', value: 3000 },
    },
    {
      stage: 'render',
      what: 'topology view: navigation to first render',
      size,
      value: median(nav),
      unit: 'ms',
      runs: nav.length,
      target: { op: '<', value: 3000 },
    },
    {
      stage: 'render',
      what: 'topology view: pan/zoom frame time',
      size,
      value: median(frames),
      unit: 'ms',
      runs: frames.length,
      // A frame of a 60 Hz screen.
      target: { op: '<', value: 16 },
      note: `p95 ${percentile(frames, 95).toFixed(1)} ms`,
    },
  ];
}
