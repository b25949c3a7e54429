import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { startLab, stopLab } from '@ibwatch/lab';
import { startCollector } from './collector.ts';

// What real-fabrics.ts uses to start its collectors.
export { portIsFree, tail, waitReady } from './collector.ts';
import { collectorAlive, OUTPUT_DIR, REPO_ROOT, STATE_FILE, type E2eState } from './state.ts';

/**
 * Starts a 256-GPU 3-tier lab (ibsim + two OpenSMs) in a temp dir and the real collector on it
 * with fast cron scans, waits for /api/ready and writes .state.json for the specs and teardown.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(resolve(REPO_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist/index.html is missing: build the web app first (pnpm build at the repo root)');
  }
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const tmpDir = makeTempDir('ibwatch-e2e');
  // E2E_PORT when set, else a port the kernel picks (known once the collector listens).
  const state: E2eState = {
    baseURL: '',
    port: process.env.E2E_PORT ? Number(process.env.E2E_PORT) : 0,
    token: randomBytes(16).toString('hex'),
    tmpDir,
    labDir: join(tmpDir, 'lab'),
    dbFile: join(tmpDir, 'ibwatch.db'),
    collectorLog: join(tmpDir, 'collector.log'),
    collectorPid: null,
  };
  // Written before anything starts, so teardown can clean up after a half-finished setup.
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));

  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  try {
    await startLab({ gpus: 256, tiers: 3, dir: state.labDir });
    const labS = secs();
    const collector = await startCollector({
      port: state.port,
      labDir: state.labDir,
      dbFile: state.dbFile,
      log: state.collectorLog,
      token: state.token,
      env: {
        // Faults must stay on the worklist (cleared, not resolved) for the screenshots taken later.
        IBWATCH_AUTO_RESOLVE_MIN: '60',
        IBWATCH_CRON_PM: '*/5 * * * * *',
        IBWATCH_CRON_SM: '*/3 * * * * *',
        IBWATCH_CRON_TOPOLOGY: '*/10 * * * * *',
        IBWATCH_IBDIAGNET_OUT: join(tmpDir, 'ibdiagnet'),
      },
      onSpawn: (pid) => {
        state.collectorPid = pid;
        writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
      },
    });
    state.baseURL = collector.baseURL;
    state.collectorEnv = collector.env;
    state.port = Number(new URL(collector.baseURL).port);
    writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
    console.log(
      `e2e: lab up in ${labS} s, collector ready at ${state.baseURL} after ${secs()} s (log ${state.collectorLog})`,
    );
  } catch (err) {
    if (state.collectorPid !== null && collectorAlive(state.collectorPid)) process.kill(state.collectorPid, 'SIGKILL');
    await stopLab(state.labDir).catch(() => false);
    // Playwright skips global-teardown when setup throws; the log tail is in the error already.
    if (!process.env.E2E_KEEP_TMP) removeDir(tmpDir);
    rmSync(STATE_FILE, { force: true });
    throw err;
  }
}
