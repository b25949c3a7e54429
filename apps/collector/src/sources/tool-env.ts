import { existsSync } from 'node:fs';
import { readState, attachLab, labIsRunning } from '@ibwatch/lab';
import type { Config } from '../config.ts';
import { ScanError } from './types.ts';
import type { ToolRun } from './tool-runner.ts';

/** Where and how diags tools run: the host's own HCA (`diags`) or the simulated lab (`lab`). */
export interface ToolEnv {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Called after a tool run failed. The lab throws a ScanError when its ibsim is gone, so the
   * scan names the cause instead of the tool's `sim_ctl: ctl failed(write)`, and frees the
   * ibsim client slot a killed tool leaked.
   */
  afterFailure?: (r: ToolRun) => Promise<void>;
}

/** The lab's ibsim died: every tool would hang until its timeout, so say so at once. */
function labGone(config: Config, pid: number): ScanError {
  return new ScanError(
    `the lab's ibsim (pid ${pid}) is not running: no fabric to query in ${config.labDir}; restart the lab ("pnpm lab down", then "pnpm lab up")`,
  );
}

export function toolEnvProvider(config: Config): () => Promise<ToolEnv> {
  if (config.source !== 'lab') return async () => ({ env: process.env });
  return async () => {
    const state = readState(config.labDir);
    if (!state || !existsSync(state.paths.scratch)) {
      throw new ScanError(`the lab is not running (no state in ${config.labDir}): start it with "pnpm lab up"`);
    }
    // A tool started against a dead ibsim waits for its MAD timeout instead of failing.
    if (!labIsRunning(state)) throw labGone(config, state.ibsim.pid);
    return {
      // umad2sim writes ./sys-<pid>/ into the tool's cwd, so tools run in the lab's scratch dir.
      cwd: state.paths.scratch,
      env: { ...process.env, LD_PRELOAD: state.paths.umad2sim, IBSIM_SOCKNAME: state.sockName },
      afterFailure: async (r) => {
        // ibsim killed mid-sweep: its tools exit 255 with "discover failed | sim_ctl: ctl failed(write)".
        if (!labIsRunning(state)) throw labGone(config, state.ibsim.pid);
        if (r.timedOut || r.signal)
          await attachLab(config.labDir)
            .then((lab) => lab.freeLeakedClients())
            .catch(() => undefined);
      },
    };
  };
}
