import { join } from 'node:path';
import { recordExtraCollector, startCollector } from '../collector.ts';
import { readState } from '../state.ts';
import { Api, test as base } from './fixtures.ts';

export { expect, snap, type ScanRow, type SmReply } from './fixtures.ts';
// Type-only and relative, as in fixtures.ts (e2e/package.json does not declare @ibwatch/fabric).
export type { FindingRow } from '../../packages/fabric/src/api.ts';

/**
 * IBWATCH_AUTO_RESOLVE_MIN of the SM specs' collector: 0, so a finding the latest SM scan does
 * not observe is resolved by that very scan. A condition still true must be re-asserted by every
 * SM scan to stay open; one that was not would be gone after a single scan.
 */
export const AUTO_RESOLVE_MIN = 0;

export interface SmCollector {
  baseURL: string;
  api: Api;
}

let started: Promise<string> | undefined;

/**
 * A second collector on the same lab for the SM specs, with its own database: SM scans every 2 s
 * and findings resolved as soon as a scan no longer observes them ({@link AUTO_RESOLVE_MIN}), so
 * "stays alarmed for longer than the auto-resolve period" takes seconds to show (the suite's
 * collector keeps cleared findings for 60 minutes, for the screenshots). Started once per worker process, on first use,
 * and stopped by global-teardown (its PID is recorded). Not a worker-scoped fixture on purpose:
 * a new worker fixture gives these files a worker of their own, which Playwright runs after
 * the others, and the SM specs must run in file-name order with 99 last.
 */
function smCollector(): Promise<string> {
  started ??= (async () => {
    const s = readState();
    const { baseURL } = await startCollector({
      labDir: s.labDir,
      dbFile: join(s.tmpDir, 'sm-collector.db'),
      log: join(s.tmpDir, 'sm-collector.log'),
      token: s.token,
      env: {
        IBWATCH_AUTO_RESOLVE_MIN: String(AUTO_RESOLVE_MIN),
        IBWATCH_CRON_SM: '*/2 * * * * *',
        // Names of SM ports come from the start-up topology scan; counters are not looked at.
        IBWATCH_CRON_PM: '0 0 * * * *',
        IBWATCH_CRON_TOPOLOGY: '0 0 * * * *',
        IBWATCH_IBDIAGNET_OUT: join(s.tmpDir, 'sm-ibdiagnet'),
      },
      onSpawn: (pid) => recordExtraCollector(s.tmpDir, pid),
    });
    return baseURL;
  })();
  return started;
}

export const test = base.extend<{ sm: SmCollector }>({
  sm: [
    async ({ playwright, env }, use) => {
      const baseURL = await smCollector();
      const request = await playwright.request.newContext({ baseURL });
      await use({ baseURL, api: new Api(request, env.token) });
      await request.dispose();
    },
    // The first use starts the collector (a topology scan included): not the test's time.
    { timeout: 90_000 },
  ],
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
