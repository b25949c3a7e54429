// Real collector processes for the hostile tests: the server (src/server.ts) and CLI runs
// (src/cli.ts), each a Node process of its own on a shared database file.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const COLLECTOR = resolve(import.meta.dirname, '../..');
const live = new Set<ChildProcess>();

/** SIGKILL whatever is still running (afterAll). */
export function killAll(): void {
  for (const c of live) if (c.exitCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
}

function node(script: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(COLLECTOR, script), ...args], {
    cwd: COLLECTOR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `ibwatch <args>` as a process of its own; resolves when it exits. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = node('src/cli.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((ok) => child.on('exit', (code) => ok({ code, stdout, stderr })));
}

export interface Server {
  base: string;
  child: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

/** The real server on `env` (IBWATCH_PORT 0: a free port); resolves once it listens. */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<Server> {
  // Log level info at least: the 'Server listening at' line is how the port is known.
  const child = node('src/server.ts', [], {
    IBWATCH_PORT: '0',
    IBWATCH_SOURCE: 'import-only',
    ...env,
    IBWATCH_LOG_LEVEL: 'info',
  });
  const log: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const base = await new Promise<string>((ok, fail) => {
    const t = setTimeout(() => fail(new Error(`server did not listen in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.on('exit', (code) => fail(new Error(`server exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (l) => {
      log.push(l);
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(l);
      if (m) {
        clearTimeout(t);
        ok(m[1]!);
      }
    });
  });
  return {
    base,
    child,
    log,
    stop: async () => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
