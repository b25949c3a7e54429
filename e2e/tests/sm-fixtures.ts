import { join } from 'node:path';
import { choosePort, recordExtraCollector, startCollector, stopCollector } from '../collector.ts';
import { readState } from '../state.ts';
import { Api, test as base } from './fixtures.ts';

export { expect, snap, type ScanRow, type SmReply } from './fixtures.ts';
// Type-only and relative, as in fixtures.ts (e2e/package.json does not declare @ibwatch/fabric).
export type { FindingRow } from '../../packages/fabric/src/api.ts';

/** How many clean SM sweeps resolve a finding on the SM specs' collector. */
export const AUTO_RESOLVE_SWEEPS = 2;

export interface SmCollector {
  baseURL: string;
  api: Api;
}

/**
 * A second collector on the same lab for the SM specs, with its own database: SM scans every 2 s
 * and findings resolved after {@link AUTO_RESOLVE_SWEEPS} clean sweeps, so "stays alarmed for
 * longer than the auto-resolve period" takes seconds to show (the suite's collector keeps its
 * findings for 1000 sweeps, for the screenshots). Started once per worker, on first use.
 */
export const test = base.extend<{ sm: SmCollector }, { smBaseURL: string }>({
  smBaseURL: [
    async ({}, use) => {
      const s = readState();
      const port = await choosePort(s.port + 1);
      const pid = await startCollector({
        port,
        labDir: s.labDir,
        dbFile: join(s.tmpDir, 'sm-collector.db'),
        log: join(s.tmpDir, 'sm-collector.log'),
        token: s.token,
        env: {
          IBWATCH_AUTO_RESOLVE_SWEEPS: String(AUTO_RESOLVE_SWEEPS),
          IBWATCH_CRON_SM: '*/2 * * * * *',
          // Names of SM ports come from the start-up topology scan; counters are not looked at.
          IBWATCH_CRON_PM: '0 0 * * * *',
          IBWATCH_CRON_TOPOLOGY: '0 0 * * * *',
          IBWATCH_IBDIAGNET_OUT: join(s.tmpDir, 'sm-ibdiagnet'),
        },
        onSpawn: (p) => recordExtraCollector(s.tmpDir, p),
      });
      await use(`http://127.0.0.1:${port}`);
      await stopCollector(pid);
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  sm: async ({ smBaseURL, playwright, env }, use) => {
    const request = await playwright.request.newContext({ baseURL: smBaseURL });
    await use({ baseURL: smBaseURL, api: new Api(request, env.token) });
    await request.dispose();
  },
});

/** Polls `probe` every 500 ms until it gives a value; fails after `timeoutMs` naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
