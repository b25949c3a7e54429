import { existsSync, rmSync } from 'node:fs';
import { stopLab } from '@ibwatch/lab';
import { readState, STATE_FILE, stopCollectorPid } from './state.ts';

/** Ends only what global-setup started: the collector by its PID, then the lab by its dir. */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return; // setup failed and already cleaned up after itself
  const state = readState();
  await stopCollectorPid(state.collectorPid);
  await stopLab(state.labDir);
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (collector log, database)`);
  else rmSync(state.tmpDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}
