import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { clearFaults, counterKey, faultLines, faultsFile, linkWhere, noteFault, readFaults } from './fault-log.ts';

let dir = '';
afterEach(() => removeDir(dir));

describe("the lab's record of active faults", () => {
  it('notes a fault once per key, keeping when it began and updating what it is', () => {
    dir = makeTempDir('ibwatch-faults');
    expect(readFaults(dir)).toEqual([]);
    const p = { node: 'dgx-0003 mlx5_2', port: 1 };
    const key = counterKey(p, 'SymbolErrorCounter');
    noteFault(
      dir,
      { key, kind: 'counter', where: '"dgx-0003 mlx5_2"[1]', what: 'SymbolErrorCounter = 40' },
      new Date(1000),
    );
    noteFault(
      dir,
      { key, kind: 'counter', where: '"dgx-0003 mlx5_2"[1]', what: 'SymbolErrorCounter = 90' },
      new Date(5000),
    );
    expect(readFaults(dir)).toEqual([
      {
        key,
        kind: 'counter',
        where: '"dgx-0003 mlx5_2"[1]',
        what: 'SymbolErrorCounter = 90',
        since: new Date(1000).toISOString(),
      },
    ]);
    // Written whole (tmp + rename): no temp file is left beside it.
    expect(JSON.parse(readFileSync(faultsFile(dir), 'utf8'))).toHaveLength(1);
    expect(existsSync(`${faultsFile(dir)}.${process.pid}.tmp`)).toBe(false);
  });

  it('names a link the same from either end, and clears only what is selected', () => {
    dir = makeTempDir('ibwatch-faults');
    const a = { node: 'leaf-r1-01', port: 34 };
    const b = { node: 'spine-p1-01', port: 6 };
    expect(linkWhere(a, b)).toBe(linkWhere(b, a));
    expect(linkWhere(b, a)).toBe('"leaf-r1-01"[34] <-> "spine-p1-01"[6]');
    noteFault(dir, { key: `rate ${linkWhere(a, b)}`, kind: 'rate', where: linkWhere(a, b), what: 'width 2X' });
    noteFault(dir, { key: 'sm-down a', kind: 'sm-down', where: 'SM a ("head-01", priority 15)', what: 'killed' });
    expect(clearFaults(dir, (f) => f.key === `rate ${linkWhere(b, a)}`)).toBe(1);
    expect(clearFaults(dir, (f) => f.key === 'nothing')).toBe(0);
    expect(readFaults(dir).map((f) => f.key)).toEqual(['sm-down a']);
  });

  it('prints what, where and since when, or says there is none', () => {
    const since = '2026-12-06T03:00:00.000Z';
    const f = { key: 'k', kind: 'link-down' as const, where: '"a"[1] <-> "b"[2]', what: 'down (Unlink)', since };
    expect(faultLines([f], Date.parse(since) + 150_000)).toEqual([
      'active faults (1):',
      '  link-down "a"[1] <-> "b"[2]: down (Unlink) (since 03:00:00Z, 3 min ago)',
    ]);
    expect(faultLines([], 0)).toEqual(['active faults: none']);
  });
});
