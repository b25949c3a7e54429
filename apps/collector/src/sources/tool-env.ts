import { existsSync } from 'node:fs';
import { readState, attachLab } from '@ibwatch/lab';
import type { Config } from '../config.ts';
import { ScanError } from '../scans/scan-service.ts';

/** Where and how diags tools run: the host's own HCA (`diags`) or the simulated lab (`lab`). */
export interface ToolEnv {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Called after a tool was killed (timeout): the lab frees the ibsim client slot it leaked. */
  afterKill?: () => Promise<void>;
}

export function toolEnvProvider(config: Config): () => Promise<ToolEnv> {
  if (config.source !== 'lab') return async () => ({ env: process.env });
  return async () => {
    const state = readState(config.labDir);
    if (!state || !existsSync(state.paths.scratch)) {
      throw new ScanError(`the lab is not running (no state in ${config.labDir}): start it with "pnpm lab up"`);
    }
    return {
      // umad2sim writes ./sys-<pid>/ into the tool's cwd, so tools run in the lab's scratch dir.
      cwd: state.paths.scratch,
      env: { ...process.env, LD_PRELOAD: state.paths.umad2sim, IBSIM_SOCKNAME: state.sockName },
      afterKill: async () => {
        await (await attachLab(config.labDir)).freeLeakedClients().catch(() => undefined);
      },
    };
  };
}
