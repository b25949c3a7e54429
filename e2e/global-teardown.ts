import { existsSync, rmSync } from 'node:fs';
import { removeDir } from '@ibwatch/testkit';
import { stopLab } from '@ibwatch/lab';
import { extraCollectors, stopCollector } from './collector.ts';
import { readState, STATE_FILE } from './state.ts';

/**
 * Ends only what this run started: the collector by its PID (and any a spec started and could not
 * stop), then the lab by its dir.
 */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return; // setup failed and already cleaned up after itself
  const state = readState();
  for (const pid of [...extraCollectors(state.tmpDir), state.collectorPid]) if (pid !== null) await stopCollector(pid);
  await stopLab(state.labDir);
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (collector log, database)`);
  else removeDir(state.tmpDir);
  rmSync(STATE_FILE, { force: true });
}
