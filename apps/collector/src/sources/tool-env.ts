import type { Config } from '../config.ts';
import { ScanError, type SourceAdapter, type ToolEnv } from './types.ts';

export type { ToolEnv } from './types.ts';

/** The host's own HCA (`diags`, `ibdiagnet`): tools run with the collector's environment. */
const HOST: SourceAdapter = { toolEnv: async () => ({ env: process.env }), nodeNameMap: () => null };

/**
 * The adapter of `config.source`. The lab's (sources/lab-adapter.ts, with @ibwatch/lab, a
 * devDependency) is imported only here and only when IBWATCH_SOURCE=lab.
 */
export async function loadSourceAdapter(config: Config): Promise<SourceAdapter> {
  if (config.source !== 'lab') return HOST;
  let labAdapter: (config: Config) => SourceAdapter;
  try {
    ({ labAdapter } = await import('./lab-adapter.ts'));
  } catch (err) {
    throw new ScanError(
      `IBWATCH_SOURCE=lab needs the simulated lab (@ibwatch/lab, in a checkout of the workspace): ${
        err instanceof Error ? err.message : String(err)
      }`,
    );
  }
  return labAdapter(config);
}

/**
 * Where tools run, asked before each run: the adapter's, or (without one) the lab's loaded on
 * first use when IBWATCH_SOURCE=lab, else the host's.
 */
export function toolEnvProvider(config: Config, adapter?: SourceAdapter): () => Promise<ToolEnv> {
  if (adapter) return () => adapter.toolEnv();
  if (config.source !== 'lab') return HOST.toolEnv;
  let loaded: Promise<SourceAdapter> | undefined;
  return async () => (await (loaded ??= loadSourceAdapter(config))).toolEnv();
}
