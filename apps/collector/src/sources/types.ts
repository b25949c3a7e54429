import type { ToolRun } from './tool-runner.ts';

/**
 * What every source hands back, and how it says a tool or input could not be used. The scan
 * pipeline (scans/pipeline.ts) consumes these; sources never import from scans/, so a source
 * can be run and tested without the pipeline behind it.
 */

/** One tool output as received: text, or bytes when the source kept them (large PM outputs). */
export interface RawOutput {
  name: string;
  text: string | Uint8Array;
}

/** What a source hands back: parsed data plus the raw outputs and tool versions behind it. */
export interface Collected<T> {
  data: T;
  raw: RawOutput[];
  toolVersions: Record<string, string>;
  warnings: string[];
  /** Some of the data could not be read (a tool failed but others worked): status 'partial'. */
  partial?: boolean;
  /** Things worth recording that do not make the data incomplete (a crashed tool run again). */
  notes?: string[];
}

/** A scan step that failed for a reason worth showing as is (tool missing, timeout, parse error). */
export class ScanError extends Error {
  constructor(
    message: string,
    readonly raw: RawOutput[] = [],
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

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

/**
 * What a fabric source brings besides its tools' output: where the tools run, and the node-name
 * map it generated (the lab's), used when IBWATCH_NODE_NAME_MAP is not set.
 */
export interface SourceAdapter {
  toolEnv(): Promise<ToolEnv>;
  nodeNameMap(): string | null;
}
