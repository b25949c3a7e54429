import { defineConfig } from '@playwright/test';

// The real baseURL comes from the port global-setup picked (tests/fixtures.ts reads it from
// .state.json); this default only matters for a spec that does not use those fixtures.
const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * One worker and files in name order: the specs share one lab and one collector, and each
 * fault spec builds on the fabric state the earlier ones left. The SM specs are numbered 90-99
 * to run last: they kill and restart SMs, which the lab can undo only with restarts of both SMs
 * (a few seconds without a master); 90-91 use a second collector of their own
 * (tests/sm-fixtures.ts) and 99 (master failover) restores the priority-15 master at its end.
 *
 * The `real-fabrics` project (specs `5N-real-*`) runs on two more collectors, one per real NDR
 * run imported with the CLI (real-fabrics.ts), set up and torn down by projects of their own;
 * it does not touch the lab. `--project lab` or `--project real-fabrics` runs one of them.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  // 2 shared cores: a scan takes ~1 s, SM failover ~4 s, and Chromium competes with ibsim.
  timeout: 60_000,
  // The SM specs (90-99) kill and restart SMs: about 3 of these minutes on a loaded 2-core box.
  globalTimeout: 15 * 60_000,
  expect: { timeout: 15_000 },
  projects: [
    { name: 'lab', testMatch: /\.spec\.ts$/, testIgnore: /-real-.*\.spec\.ts$/ },
    { name: 'real-fabrics-setup', testMatch: /real-fabrics\.setup\.ts$/, teardown: 'real-fabrics-teardown' },
    { name: 'real-fabrics-teardown', testMatch: /real-fabrics\.teardown\.ts$/ },
    { name: 'real-fabrics', testMatch: /-real-.*\.spec\.ts$/, dependencies: ['real-fabrics-setup'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    // Tracing every test costs ~30% of the run on 2 cores; E2E_TRACE=1 turns it on to debug.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-quic'],
    },
  },
});
