/**
 * Process helpers: detached start with output to a file, liveness, and PID-exact teardown.
 * The only other module that imports child_process is tools.ts (diags tool runs).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** Options for {@link spawnDetached}. */
export interface DetachedOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** File that receives stdout and stderr (appended). */
  outFile: string;
  /** An already-open fd to use as stdin (e.g. the console FIFO opened O_RDWR), else /dev/null. */
  stdinFd?: number;
}

/**
 * Starts `cmd args` in its own process group, detached from this process, so a lab outlives the
 * CLI that started it. Returns the PID once the spawn succeeded (or throws, e.g. ENOENT).
 */
export async function spawnDetached(cmd: string, args: string[], o: DetachedOptions): Promise<number> {
  const out = openSync(o.outFile, 'a');
  try {
    const child = spawn(cmd, args, {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: [o.stdinFd ?? 'ignore', out, out],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => (child.pid ? resolve(child.pid) : reject(new Error(`${cmd}: no pid`))));
    });
    child.unref();
    return pid;
  } finally {
    closeSync(out);
  }
}

/** True if `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // "12345 (ibsim) Z ..." — a zombie child of ours still answers kill(0) but is dead.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** argv[0] basename of a live process, for checking a recorded PID was not reused. */
export function processName(pid: number): string | undefined {
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return argv0.split('/').pop();
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Stops one recorded process: SIGTERM, then SIGKILL after `graceMs`. Does nothing if the PID is
 * gone or now belongs to a different program (`expectName`), so a reused PID is never hit.
 * Resolves true when the process is gone.
 */
export async function stopPid(pid: number, expectName: string, graceMs = 3000): Promise<boolean> {
  if (!isAlive(pid)) return true;
  if (processName(pid) !== expectName) return true;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return true;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return true;
  }
  for (let i = 0; i < 40 && isAlive(pid); i++) await sleep(50);
  return !isAlive(pid);
}
