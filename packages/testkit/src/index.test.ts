import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, seededRandom, TEST_TOKEN, tempDir, tempDirs, testCollectorEnv } from './index.ts';

describe('testkit', () => {
  it('replays the same numbers from the same seed, other numbers from another', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(seededRandom(8)()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('makes a fresh temp dir per call and removes it with its files', () => {
    const t = tempDir('ibwatch-testkit');
    expect(basename(t.dir)).toMatch(/^ibwatch-testkit-/);
    writeFileSync(join(t.dir, 'f'), 'x');
    const other = makeTempDir('ibwatch-testkit');
    expect(other).not.toBe(t.dir);
    t.cleanup();
    removeDir(other);
    expect(existsSync(t.dir) || existsSync(other)).toBe(false);
    expect(() => t.cleanup()).not.toThrow();
  });

  it('removes every dir of a tempDirs() set at once', () => {
    const set = tempDirs();
    const made = [set.make('ibwatch-testkit-a'), set.make('ibwatch-testkit-b')];
    expect(made.every((d) => existsSync(d))).toBe(true);
    set.cleanup();
    expect(made.some((d) => existsSync(d))).toBe(false);
  });

  it('gives a collector environment under the dir, with the test token and overrides', () => {
    const env = testCollectorEnv('/tmp/x', { IBWATCH_SOURCE: 'diags' });
    expect(env).toMatchObject({ IBWATCH_DB: '/tmp/x/ibwatch.db', IBWATCH_TOKEN: TEST_TOKEN, IBWATCH_SOURCE: 'diags' });
    expect(TEST_TOKEN.length).toBeGreaterThanOrEqual(16);
  });
});
