/**
 * The real server (`apps/collector/src/server.ts`) on the 30-day database of the db-size stage
 * (or a 3-day one), with generated diags tools on PATH so it sweeps on its own schedule:
 * API latency under concurrent clients (20; 50 from 32k GPUs), one port's 30-day history, RSS while serving and
 * sweeping, and the topology page in headless Chromium.
 */
import { benchFabric, sizeLabel } from '../../packages/parsers/bench/fabric.ts';
import type { Stage, StageCtx } from '../lib/stage.ts';
import { maxOf, median, percentile, type Row } from '../lib/stats.ts';
import { launchChromium, measureTopology } from '../lib/browser.ts';
import { load, sampleRss, type Server } from '../lib/server.ts';
import { socketLoadFigures, withCpu, type LoadFigures } from '../lib/socket-load.ts';
import { scansSince, startSweepingServer, waitForScan } from '../lib/sweeping-server.ts';
import { API_CLIENTS, bandOf, targetFor } from '../lib/targets.ts';
import { historyDb } from './db-size.ts';

/** Math.max(...xs) overflows the stack on the ~100k latencies of a 30-s load. */

export const serveStage: Stage = async (ctx) => {
  const f = benchFabric(ctx.big);
  const db = await historyDb(ctx);
  const { server, started } = await startSweepingServer({
    fabric: f,
    dbFile: db.file,
    toolDir: ctx.tmp('tools'),
    periodS: 20,
    log: (m) => ctx.log(`serve: ${m}`),
  });
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
    rows.push(
      ...(await apiRows(server.url, ctx.big, size, {
        n: ctx.quick ? 100 : 400,
        durationMs: ctx.quick ? 10_000 : 30_000,
        history: { path: `/api/ports/${db.port.guid}/${db.port.port}/counters?range=30d`, size: db.port.points },
        serverPid: server.pid,
        oldClient: true,
      })),
    );
    rows.push(...(await render(ctx, server, size)));
    rows.push(...(await sweepRows(server.url, started, ctx.big, size)));
    rows.push(rssRow(rss.stop(), startupRss.length, ctx.big, size));
  } finally {
    rss.stop();
    await server.stop();
  }
  return rows;
};

/**
 * API latency of the overview, worklist, findings and topology endpoints and one port's counter
 * history, each loaded by the band's number of concurrent clients (lib/targets.ts) for
 * `durationMs` and at least `n` requests. Each endpoint is loaded for longer than one sweep
 * period, so that the share of requests a sweep's stall delays is what it would be in steady
 * state. (Over a short burst of a few hundred requests, p95 was just "did a sweep start during
 * the burst".) The figure is the raw-socket clients' (lib/socket-load.ts); with `oldClient`, the
 * one-thread http client's figure of the same endpoint follows in the note, measured just after,
 * and each says the CPU the bench and the server spent per reply (sweeps included).
 */
export async function apiRows(
  url: string,
  gpus: number,
  size: string,
  opts: {
    n: number;
    durationMs: number;
    history: { path: string; size: string; what?: string };
    serverPid?: number;
    oldClient?: boolean;
  },
): Promise<Row[]> {
  const clients = API_CLIENTS[bandOf(gpus)];
  const endpoints: [string, string, string, 'api.p95' | 'api.history-p95'][] = [
    ['overview', '/api/summary', '', 'api.p95'],
    ['worklist', '/api/worklist', '', 'api.p95'],
    ['findings', '/api/findings', '', 'api.p95'],
    ['topology', '/api/topology', '', 'api.p95'],
    [opts.history.what ?? "one port's 30-day counter history", opts.history.path, opts.history.size, 'api.history-p95'],
  ];
  const rows: Row[] = [];
  for (const [name, path, pointSize, target] of endpoints) {
    await load(url, path, 2, 4); // warm-up
    const f = await socketLoadFigures(url, path, clients, opts.n, opts.durationMs, { serverPid: opts.serverPid });
    const old = opts.oldClient
      ? await withCpu(opts.serverPid, async () => ({
          lat: await load(url, path, clients, opts.n, opts.durationMs),
          bytes: 0,
        }))
      : null;
    rows.push({
      stage: 'api',
      what: `${target === 'api.p95' ? `${name} (${path})` : name} p95, ${clients} clients`,
      size: pointSize || size,
      value: percentile(f.lat, 95),
      unit: 'ms',
      runs: f.lat.length,
      target: targetFor(target, gpus),
      note: [
        `p50 ${median(f.lat).toFixed(0)} ms, p99 ${percentile(f.lat, 99).toFixed(0)} ms`,
        `max ${maxOf(f.lat).toFixed(0)} ms`,
        `${(f.bytes / Math.max(1, f.lat.length) / 1e3).toFixed(1)} kB a reply`,
        cpuText(f),
        ...(old
          ? [
              `one-thread http client: p95 ${percentile(old.lat, 95).toFixed(0)} ms, p50 ` +
                `${median(old.lat).toFixed(0)} ms, ${old.lat.length} replies, ${cpuText(old)}`,
            ]
          : []),
      ].join('; '),
    });
  }
  return rows;
}

/** CPU per reply of the bench (client) and of the server (its sweeps included). */
function cpuText(f: LoadFigures): string {
  const server = Number.isFinite(f.serverCpuMsPerReply) ? `, server ${f.serverCpuMsPerReply.toFixed(2)}` : '';
  return `CPU ms a reply: client ${f.clientCpuMsPerReply.toFixed(2)}${server}`;
}

/** The PM scans the server ran since `started` (tools + parse + store), when there were any. */
export async function sweepRows(url: string, started: number, gpus: number, size: string): Promise<Row[]> {
  const sweeps = (await scansSince(url, 'pm', started))
    .filter((r) => r.status !== 'running' && r.status !== 'failed')
    .map((r) => r.durationMs);
  if (!sweeps.length) return [];
  return [
    {
      stage: 'api',
      what: 'PM scan in the server meanwhile (tools + parse + store)',
      size,
      value: median(sweeps),
      unit: 'ms',
      runs: sweeps.length,
      // A sweep must end well inside the stage's sweep period.
      target: targetFor('api.sweep-in-server', gpus),
      note: `max ${maxOf(sweeps)} ms`,
    },
  ];
}

/** The collector's RSS samples over a run; the first `startup` of them during its start-up scans. */
export function rssRow(xs: number[], startup: number, gpus: number, size: string): Row {
  return {
    stage: 'rss',
    what: 'collector RSS while serving + sweeping (max)',
    size,
    value: maxOf(xs),
    unit: 'MB',
    runs: xs.length,
    target: targetFor('rss.max', gpus),
    note:
      `median ${median(xs).toFixed(0)} MB; start-up (topology scan + first sweep) max ` +
      `${maxOf(xs.slice(0, startup)).toFixed(0)} MB, after start-up max ${maxOf(xs.slice(startup)).toFixed(0)} MB`,
  };
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
  return topologyRows(ctx.big, size, nav, first, frames);
}

/** The topology view's figures and their targets (also printed by bench:spot). */
export function topologyRows(gpus: number, size: string, nav: number[], first: number[], frames: number[]): Row[] {
  return [
    {
      stage: 'render',
      what: 'topology view: first render (canvas)',
      size,
      value: median(first),
      unit: 'ms',
      runs: first.length,
      target: targetFor('render.first', gpus),
    },
    {
      stage: 'render',
      what: 'topology view: navigation to first render',
      size,
      value: median(nav),
      unit: 'ms',
      runs: nav.length,
      target: targetFor('render.navigation', gpus),
    },
    {
      stage: 'render',
      what: 'topology view: pan/zoom frame time',
      size,
      value: median(frames),
      unit: 'ms',
      runs: frames.length,
      target: targetFor('render.frame', gpus),
      note: `p95 ${percentile(frames, 95).toFixed(1)} ms`,
    },
  ];
}
