/**
 * The simulated lab (packages/lab: ibsim + OpenSM) as a fabric source. Loaded with a dynamic
 * import() by tool-env.ts only when IBWATCH_SOURCE=lab: @ibwatch/lab is a devDependency of the
 * collector, and no other production module imports it.
 */
import { existsSync } from 'node:fs';
import { attachLab, labIsRunning, readState } from '@ibwatch/lab';
import type { Config } from '../config.ts';
import { ScanError, type SourceAdapter } from './types.ts';

/** The lab's ibsim died: every tool would hang until its timeout, so say so at once. */
function labGone(config: Config, pid: number): ScanError {
  return new ScanError(
    `the lab's ibsim (pid ${pid}) is not running: no fabric to query in ${config.labDir}; ` +
      'restart the lab ("pnpm lab down", then "pnpm lab up")',
  );
}

export function labAdapter(config: Config): SourceAdapter {
  return {
    nodeNameMap: () => readState(config.labDir)?.paths.nodeNameMap ?? null,
    toolEnv: async () => {
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
    },
  };
}
