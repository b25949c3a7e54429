// promtool (Debian's `prometheus` package, installed by scripts/setup.sh) for the tests of
// /metrics and of deploy/prometheus. Imported only by *.test.ts files.
import { execFile } from 'node:child_process';

export interface PromtoolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `promtool ARGS` with `input` on stdin; resolves with the exit code and both outputs. */
export function promtool(args: string[], input?: string, timeoutMs = 60_000): Promise<PromtoolResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('promtool', args, { timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(new Error(`promtool ${args.join(' ')}: ${err.message} (installed by scripts/setup.sh)`));
        return;
      }
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}
