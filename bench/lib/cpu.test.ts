import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuSecondsOfStat, cpuShares } from './cpu.ts';

describe('/proc/<pid>/stat CPU time', () => {
  it('adds utime and stime (fields 14 and 15), even when the command name holds spaces and parentheses', () => {
    const fields = ['S', '1', '2', '3', '0', '-1', '4194560', '10', '0', '0', '0', '250', '50', '7', '9'];
    expect(cpuSecondsOfStat(`4242 (node (x) y) ${fields.join(' ')} 20 0`, 100)).toBeCloseTo(3.0);
    expect(cpuSecondsOfStat(`4242 (node) ${fields.join(' ')} 20 0`, 1000)).toBeCloseTo(0.3);
  });

  it("reads this process' own stat into a plausible figure", () => {
    const s = cpuSecondsOfStat(readFileSync('/proc/self/stat', 'utf8'), 100);
    const own = process.cpuUsage();
    expect(s).toBeGreaterThan(0);
    // Clock-tick granularity and the read itself: within a second of Node's own figure.
    expect(Math.abs(s - (own.user + own.system) / 1e6)).toBeLessThan(1);
  });

  it('turns consecutive samples into the % of one core of each interval', () => {
    expect(
      cpuShares([
        [0, 0],
        [10, 0.5],
        [20, 2.5],
        [20, 3],
      ]),
    ).toEqual([5, 20]);
  });
});
