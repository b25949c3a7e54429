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

/**
 * Runs a bench's main and exits with its code (1, with the stack, when it throws), once stdout
 * has been written. It exits rather than waiting for the event loop to drain: after a full
 * `pnpm bench --gpus 45000` (2026-12-03) the process sat idle with its results printed, some
 * stage's handle still open, until it was killed.
 */
export function runMain(main: () => Promise<number>): void {
  const exit = (code: number) => process.stdout.write('', () => process.exit(code));
  main().then(exit, (err: unknown) => {
    console.error(err);
    exit(1);
  });
}
