import { existsSync, rmSync } from 'node:fs';
import { stopLab } from '@ibwatch/lab';
import { collectorAlive, readState, STATE_FILE } from './state.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends only what global-setup started: the collector by its PID, then the lab by its dir. */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return; // setup failed and already cleaned up after itself
  const state = readState();
  const pid = state.collectorPid;
  if (pid !== null && collectorAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 50 && collectorAlive(pid); i++) await sleep(100);
    if (collectorAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await stopLab(state.labDir);
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (collector log, database)`);
  else rmSync(state.tmpDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}
