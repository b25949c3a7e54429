/** CPU time of another process, from /proc/<pid>/stat (Linux), as the cadence stage samples it. */
import { execFileSync } from 'node:child_process';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
export function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * CPU seconds (user + system) `pid` has used, from the text of /proc/<pid>/stat: fields 14 and
 * 15, counted after the command name's closing parenthesis (the name may hold spaces).
 */
export function cpuSecondsOfStat(stat: string, ticks: number): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): utime is field 14, stime field 15.
  return (Number(f[11]) + Number(f[12])) / ticks;
}

/** Per-interval CPU shares (% of one core) of consecutive [wall s, cpu s] samples. */
export function cpuShares(samples: [number, number][]): number[] {
  const out: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const dt = samples[i]![0] - samples[i - 1]![0];
    if (dt > 0) out.push((100 * (samples[i]![1] - samples[i - 1]![1])) / dt);
  }
  return out;
}
