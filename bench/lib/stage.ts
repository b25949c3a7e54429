/** What every stage gets and returns. */
import { join } from 'node:path';
import { tempDirs as testkitTempDirs } from '@ibwatch/testkit';
import { loadConfig, type Config } from '../../apps/collector/src/config.ts';
import type { Row } from './stats.ts';

export interface StageCtx {
  quick: boolean;
  /** The large fabric (10k GPUs; 4k with --quick; N with --gpus N) and every size reported. */
  big: number;
  sizes: number[];
  runs: number;
  /** How long the cadence stage sweeps every 10 s. */
  cadenceMinutes: number;
  log: (msg: string) => void;
  /** A temp dir owned by this stage, removed by run.ts afterwards. */
  tmp: (prefix: string) => string;
}

export type Stage = (ctx: StageCtx) => Promise<Row[]>;

/** Temp dirs `ibwatch-bench-<prefix>-XXXXXX`, removed together by run.ts. */
export function tempDirs(): { make: (prefix: string) => string; cleanup: () => void } {
  const set = testkitTempDirs();
  return { make: (prefix) => set.make(`ibwatch-bench-${prefix}`), cleanup: set.cleanup };
}

/** A collector config on `dir` with generated tools (source diags), as the bench stages use it. */
export function benchConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    IBWATCH_SOURCE: 'diags',
    IBWATCH_DB: join(dir, 'ibwatch.db'),
    IBWATCH_EXPECTED_RATE: '4X HDR',
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_IBDIAGNET_OUT: join(dir, 'ibdiagnet'),
    IBWATCH_LOG_LEVEL: 'silent',
    ...env,
  });
}

/** Runs a bench's main and exits with its code (1, with the stack, when it throws). */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
