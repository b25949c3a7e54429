/**
 * Running infiniband-diags tools against a lab: environment (umad2sim preload, socket name,
 * scratch cwd), bounded concurrency (ibsim serves at most 10 clients, SMs included), and a
 * timeout on every run. A non-zero exit code is data, not an exception.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What a tool run returns (house style: the caller decides what a failure means). */
export interface ToolResult {
  cmd: string;
  args: string[];
  stdout: string;
  stderr: string;
  /** Exit code, or null when killed by a signal (timeout). */
  exitCode: number | null;
  /** The signal that ended the process (SIGKILL of a timeout, SIGSEGV of a crash), else null. */
  signal: string | null;
  durationMs: number;
  timedOut: boolean;
}

/** The environment a diags tool needs to talk to one lab. */
export interface ToolEnv {
  /** Writable scratch dir: umad2sim creates `./sys-<pid>/` in the cwd of every tool. */
  cwd: string;
  /** Variables to add to the environment: `LD_PRELOAD` (umad2sim) and `IBSIM_SOCKNAME`. */
  env: { LD_PRELOAD: string; IBSIM_SOCKNAME: string };
  /** Node-name-map file of the lab, for `--node-name-map`. */
  nodeNameMap: string;
}

let cachedUmad2sim: string | undefined;

/**
 * Path of libumad2sim.so: `$IBWATCH_UMAD2SIM` if set, else from `dpkg -L libumad2sim0`, else a
 * search of the usual multiarch dirs. Never hard-codes the architecture.
 */
export async function findUmad2sim(): Promise<string> {
  if (process.env.IBWATCH_UMAD2SIM) return process.env.IBWATCH_UMAD2SIM;
  if (cachedUmad2sim) return cachedUmad2sim;
  const fromDpkg = await new Promise<string | undefined>((resolve) => {
    execFile('dpkg', ['-L', 'libumad2sim0'], { timeout: 10_000 }, (err, stdout) => {
      if (err) return resolve(undefined);
      resolve(stdout.split('\n').find((l) => l.endsWith('/libumad2sim.so')));
    });
  });
  const candidates = [fromDpkg, '/usr/lib/umad2sim/libumad2sim.so', '/usr/local/lib/umad2sim/libumad2sim.so'];
  for (const dir of ['x86_64-linux-gnu', 'aarch64-linux-gnu', 'powerpc64le-linux-gnu', 's390x-linux-gnu']) {
    candidates.push(`/usr/lib/${dir}/umad2sim/libumad2sim.so`);
  }
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error('libumad2sim.so not found: install libumad2sim0 or set IBWATCH_UMAD2SIM');
  cachedUmad2sim = found;
  return found;
}

/** A counting semaphore: at most `limit` holders at once, FIFO wake-up. */
export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(readonly limit: number) {}
  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.active--;
  }
  get inUse(): number {
    return this.active;
  }
}

/**
 * Per-process cap on concurrent tool runs. ibsim accepts 10 clients; the two SMs take two, and
 * 12 parallel clients failed with `sim_ctl: ctl error` (docs/lab.md). 6 leaves room for other
 * processes (the collector, a second test) using the same lab.
 */
export const toolSlots = new Semaphore(Number(process.env.IBWATCH_LAB_TOOL_CONCURRENCY ?? 6));

export interface RunToolOptions {
  /** Default 30 s. The tool gets SIGKILL when it expires. */
  timeoutMs?: number;
  /** Called after a run that was killed, so the caller can free the leaked ibsim slot. */
  onKilled?: (pid: number | undefined) => Promise<void> | void;
}

/** Runs one diags tool in the lab's environment, bounded by {@link toolSlots} and a timeout. */
export async function runTool(te: ToolEnv, cmd: string, args: string[], o: RunToolOptions = {}): Promise<ToolResult> {
  // Under umad2sim a diags tool occasionally dies of SIGSEGV (seen with ibqueryerrors in about
  // 3% of runs: "exit SIGSEGV: ibwarn: [5016] sim_connect: attached as client 3 at node ...").
  // It is a simulator artefact, not a fabric event: the lab retries such a crash once, and says so.
  // A tool that exited with an error of its own (any exit code) or hit its timeout is not retried.
  const first = await runToolOnce(te, cmd, args, o);
  if (first.exitCode !== null || first.timedOut) return first;
  if (o.onKilled) await o.onKilled(undefined);
  const said = first.stderr.trim().split('\n').slice(-1)[0]?.slice(0, 200);
  process.stderr.write(
    `ibwatch lab: ${[cmd, ...args].join(' ')} died of ${first.signal ?? 'a signal'} under ibsim` +
      `${said ? ` (${said})` : ''}; retrying once\n`,
  );
  return runToolOnce(te, cmd, args, o);
}

async function runToolOnce(te: ToolEnv, cmd: string, args: string[], o: RunToolOptions): Promise<ToolResult> {
  const timeoutMs = o.timeoutMs ?? 30_000;
  await toolSlots.acquire();
  const t0 = performance.now();
  let pid: number | undefined;
  try {
    const r = await new Promise<ToolResult>((resolve) => {
      const child = execFile(
        cmd,
        args,
        {
          cwd: te.cwd,
          env: { ...process.env, ...te.env },
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 256 * 1024 * 1024,
        },
        (err, stdout, stderr) => {
          const e = err as (NodeJS.ErrnoException & { code?: unknown; killed?: boolean; signal?: string }) | null;
          if (e && typeof e.code === 'string') {
            // spawn failure (ENOENT ...): report as exit 127 like a shell would
            resolve({
              cmd,
              args,
              stdout: '',
              stderr: `${cmd}: ${e.message}`,
              exitCode: 127,
              signal: null,
              durationMs: performance.now() - t0,
              timedOut: false,
            });
            return;
          }
          const timedOut = !!e?.killed && e.signal === 'SIGKILL';
          resolve({
            cmd,
            args,
            stdout: String(stdout),
            stderr: String(stderr),
            exitCode: e ? (typeof e.code === 'number' ? e.code : null) : 0,
            signal: e?.signal ?? null,
            durationMs: performance.now() - t0,
            timedOut,
          });
        },
      );
      pid = child.pid;
    });
    if (r.timedOut && o.onKilled) await o.onKilled(pid);
    return r;
  } finally {
    toolSlots.release();
  }
}
