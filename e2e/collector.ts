import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { collectorAlive, REPO_ROOT } from './state.ts';

const READY_TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface CollectorOptions {
  /**
   * The port to listen on; 0 (the default) lets the kernel pick a free one. Checking a port free
   * and then starting a collector on it races with other suites on the same machine: when another
   * collector took the port in between, ours died of EADDRINUSE while /api/ready was answered by
   * the other one, and the specs ran against someone else's fabric with the wrong token.
   */
  port?: number;
  labDir: string;
  dbFile: string;
  log: string;
  token: string;
  /** IBWATCH_* settings over the e2e defaults (fast cron scans, no jitter, no grace period). */
  env?: Record<string, string>;
  /** Called with the PID as soon as it is spawned, before it is ready (to record it for teardown). */
  onSpawn?: (pid: number) => void;
  /**
   * What "started" means: `ready` (the default) waits for /api/ready, that is a completed scan;
   * `answering` only for /api/health, for a collector that will complete none (an empty
   * import-only one).
   */
  until?: 'ready' | 'answering';
}

/**
 * Starts the real collector (`apps/collector/src/server.ts`) on the lab with the e2e settings and
 * waits until it logs the address it listens on and answers /api/ready there. Only our own
 * IBWATCH_* settings reach it: a developer's shell exports must not change the run. Returns its
 * PID, base URL and IBWATCH_* settings; on failure it is killed and the log tail is thrown.
 */
export async function startCollector(
  o: CollectorOptions,
): Promise<{ pid: number; baseURL: string; env: Record<string, string> }> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')),
  );
  Object.assign(env, {
    IBWATCH_SOURCE: 'lab',
    IBWATCH_LAB_DIR: o.labDir,
    IBWATCH_DB: o.dbFile,
    IBWATCH_HOST: '127.0.0.1',
    IBWATCH_PORT: String(o.port ?? 0),
    IBWATCH_TOKEN: o.token,
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_JITTER_MS: '0',
    IBWATCH_LOG_LEVEL: 'info',
    ...o.env,
  });
  const ibwatchEnv = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('IBWATCH_'))) as Record<
    string,
    string
  >;
  const logStart = existsSync(o.log) ? statSync(o.log).size : 0;
  const out = openSync(o.log, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/collector/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (child.pid === undefined) throw new Error('could not spawn the collector');
  child.unref();
  const pid = child.pid;
  o.onSpawn?.(pid);
  try {
    return { pid, baseURL: await waitListening(pid, o.log, logStart, undefined, o.until), env: ibwatchEnv };
  } catch (err) {
    if (collectorAlive(pid)) process.kill(pid, 'SIGKILL');
    throw err;
  }
}

/** The address the collector logged (`"msg":"Server listening at http://127.0.0.1:41234"`), or null. */
function listeningAt(log: string, from: number): string | null {
  try {
    const text = readFileSync(log, 'utf8').slice(from);
    return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** True when nothing listens on `port` of 127.0.0.1 right now (it may be taken a moment later). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/** Waits until the collector `pid` answers /api/ready at `baseURL` (a port chosen beforehand). */
export async function waitReady(baseURL: string, pid: number, log: string): Promise<void> {
  await waitListening(pid, log, 0, baseURL);
}

/**
 * Waits until the collector `pid` answers /api/ready at `known`, or else at the address it logged
 * after `logStart`. Returns the base URL.
 */
async function waitListening(
  pid: number,
  log: string,
  logStart: number,
  known?: string,
  until: 'ready' | 'answering' = 'ready',
): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'not listening yet';
  while (Date.now() < deadline) {
    if (!collectorAlive(pid))
      throw new Error(`the collector (pid ${pid}) exited during start-up; log tail:\n${tail(log)}`);
    const baseURL = known ?? listeningAt(log, logStart);
    if (baseURL)
      try {
        const res = await fetch(`${baseURL}${until === 'ready' ? '/api/ready' : '/api/health'}`);
        if (res.status === 200) return baseURL;
        last = `${res.status} ${await res.text()}`;
      } catch (err) {
        last = String(err);
      }
    await sleep(500);
  }
  throw new Error(
    `the collector was not ready within ${READY_TIMEOUT_MS / 1000} s (last: ${last}); log tail:\n${tail(log)}`,
  );
}

/** Stops a collector this run started, by PID (TERM, KILL after 5 s); a PID reused since is left alone. */
export async function stopCollector(pid: number): Promise<void> {
  if (!collectorAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 50 && collectorAlive(pid); i++) await sleep(100);
  if (collectorAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Where specs record collectors they start, so global-teardown stops them even after a crash. */
export const extraPidsFile = (tmpDir: string) => join(tmpDir, 'extra-collectors.pids');

export function recordExtraCollector(tmpDir: string, pid: number): void {
  appendFileSync(extraPidsFile(tmpDir), `${pid}\n`);
}

export function extraCollectors(tmpDir: string): number[] {
  try {
    return readFileSync(extraPidsFile(tmpDir), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
