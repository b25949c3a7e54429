/** What every stage gets and returns. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../apps/collector/src/config.ts';
import type { Row } from './stats.ts';

export interface StageCtx {
  quick: boolean;
  /** The large fabric (10k GPUs; 4k with --quick) and the smaller sizes also reported. */
  big: number;
  sizes: number[];
  runs: number;
  log: (msg: string) => void;
  /** A temp dir owned by this stage, removed by run.ts afterwards. */
  tmp: (prefix: string) => string;
}

export type Stage = (ctx: StageCtx) => Promise<Row[]>;

export function tempDirs(): { make: (prefix: string) => string; cleanup: () => void } {
  const dirs: string[] = [];
  return {
    make: (prefix) => {
      const d = mkdtempSync(join(tmpdir(), `ibwatch-bench-${prefix}-`));
      dirs.push(d);
      return d;
    },
    cleanup: () => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
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
