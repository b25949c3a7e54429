/**
 * The real collector server on generated diags tools (on its PATH), sweeping on its own schedule
 * as on a head node: what the serve, cadence and bench:spot figures are measured against.
 */
import type { BenchFabric } from '../../packages/parsers/bench/fabric.ts';
import { FakeFabricTools } from './fake-tools.ts';
import { freePort, type Server, startServer } from './server.ts';

export interface SweepingServer {
  server: Server;
  /** When the server was started (ms since the epoch), to tell its own scans from older ones. */
  started: number;
  periodS: number;
}

/**
 * Starts the collector on `dbFile`, sweeping every `periodS` seconds through `sweeps` pre-rendered
 * sweeps of `f` (cycled with the wall clock), in `toolDir`. `env` adds or overrides variables.
 */
export async function startSweepingServer(opts: {
  fabric: BenchFabric;
  dbFile: string;
  toolDir: string;
  periodS: number;
  sweeps?: number;
  env?: Record<string, string>;
  log?: (m: string) => void;
}): Promise<SweepingServer> {
  const tools = new FakeFabricTools(opts.fabric);
  const bin = tools.writeScripts(opts.toolDir, opts.sweeps ?? 4, opts.periodS);
  const port = await freePort();
  opts.log?.(`starting the collector on :${port} (sweeps every ${opts.periodS} s)`);
  const started = Date.now();
  const server = await startServer(
    {
      IBWATCH_SOURCE: 'diags',
      IBWATCH_DB: opts.dbFile,
      PATH: `${bin}:${process.env.PATH}`,
      IBWATCH_EXPECTED_RATE: '4X HDR',
      IBWATCH_CRON_PM: `*/${opts.periodS} * * * * *`,
      IBWATCH_CRON_SM: '10 * * * * *',
      IBWATCH_CRON_TOPOLOGY: '0 0 */6 * * *',
      IBWATCH_JITTER_MS: '0',
      IBWATCH_TOKEN: 'bench-token-0123456789abcdef',
      ...opts.env,
    },
    port,
  );
  return { server, started, periodS: opts.periodS };
}

export interface ScanRow {
  startedAt: number;
  status: string;
  durationMs: number;
}

/** The server's scans of `kind` that started at or after `since` (newest first, at most `limit`). */
export async function scansSince(url: string, kind: string, since: number, limit = 50): Promise<ScanRow[]> {
  const rows = (await (await fetch(`${url}/api/scans?kind=${kind}&limit=${limit}`)).json()) as ScanRow[];
  return rows.filter((r) => r.startedAt >= since);
}

/** Waits until a scan of `kind` that started after `since` has finished. */
export async function waitForScan(url: string, kind: string, since: number, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await scansSince(url, kind, since, 5)).some((r) => r.status !== 'running')) return;
    if (Date.now() > deadline) throw new Error(`no ${kind} scan finished within ${timeoutMs / 1000} s of start`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
