/**
 * @ibwatch/testkit — what tests, benchmarks and e2e set-up of every package share: a seeded RNG,
 * temp dirs, the test token and the environment of a collector that runs no tools. A
 * devDependency only: nothing at run time imports it. It may import @ibwatch/fabric, never apps/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The RNG lives in @ibwatch/fabric because run-time code (generated fabrics, the demo) uses it
// too; tests take it from here so that they have one place to look.
export { seededRandom } from '@ibwatch/fabric';

/** The write token of test collectors (longer than the 16 characters the collector requires). */
export const TEST_TOKEN = 'test-token-0123456789abcdef';

/** A fresh directory `<prefix>-XXXXXX` under the OS temp dir; the caller removes it. */
export function makeTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Removes a directory and everything in it; nothing happens when it is already gone. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp dir and the function that removes it. */
export function tempDir(prefix = 'ibwatch-test'): { dir: string; cleanup: () => void } {
  const dir = makeTempDir(prefix);
  return { dir, cleanup: () => removeDir(dir) };
}

/** Temp dirs made one at a time (`make`) and removed together (`cleanup`), e.g. by a bench run. */
export function tempDirs(): { make: (prefix: string) => string; cleanup: () => void } {
  const dirs: string[] = [];
  return {
    make: (prefix) => {
      const d = makeTempDir(prefix);
      dirs.push(d);
      return d;
    },
    cleanup: () => {
      for (const d of dirs.splice(0)) removeDir(d);
    },
  };
}

/**
 * The environment of a collector under test: import-only source (no tools), its database and
 * ibdiagnet output under `dir`, no web UI, {@link TEST_TOKEN}, findings without grace period.
 * `env` adds or overrides variables.
 */
export function testCollectorEnv(dir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    IBWATCH_SOURCE: 'import-only',
    IBWATCH_DB: join(dir, 'ibwatch.db'),
    IBWATCH_WEB_DIST: join(dir, 'no-web-dist'),
    IBWATCH_IBDIAGNET_OUT: join(dir, 'ibdiagnet'),
    IBWATCH_TOKEN: TEST_TOKEN,
    IBWATCH_GRACE_PERIOD_MIN: '0',
    // Every reply checked strictly against its schema: a field missing from one fails the test.
    IBWATCH_CHECK_REPLIES: 'true',
    ...env,
  };
}
