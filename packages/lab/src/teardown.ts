/** Lab teardown by recorded PID, then removal of everything the lab wrote. */
import { readdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { stopPid } from './proc.ts';
import { stopSm } from './sm.ts';
import { stateFile, type LabState } from './state.ts';

/**
 * Stops every process recorded in the state (the SMs, rogue ones included, then ibsim; TERM, then KILL after
 * 3 s), then removes the run dir (FIFO, outputs, `sys-*` dirs), the topology files and the
 * state file, and the lab dir itself if it is then empty. Safe to call twice.
 */
export async function stopLabState(s: LabState): Promise<void> {
  await Promise.all([...s.sms, ...(s.rogueSms ?? [])].map((sm) => stopSm(sm)));
  if (s.ibsim.pid) await stopPid(s.ibsim.pid, 'ibsim');
  rmSync(s.runDir, { recursive: true, force: true });
  for (const f of [s.paths.netfile, s.paths.roots, s.paths.nodeNameMap, s.paths.topologyJson])
    rmSync(f, { force: true });
  try {
    rmdirSync(join(s.dir, 'topology'));
  } catch {
    /* not empty or gone */
  }
  rmSync(stateFile(s.dir), { force: true });
  rmSync(stateFile(s.dir) + '.tmp', { force: true });
  try {
    if (readdirSync(s.dir).length === 0) rmdirSync(s.dir);
  } catch {
    /* gone */
  }
}
