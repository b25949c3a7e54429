import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { collectorAlive, REPO_ROOT } from './state.ts';

const READY_TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/** `preferred` when set (it must be free), else the first free port of [from, from + 100). */
export async function choosePort(from: number, preferred?: number): Promise<number> {
  if (preferred !== undefined) {
    if (!(await portIsFree(preferred))) throw new Error(`port ${preferred} is already in use on 127.0.0.1`);
    return preferred;
  }
  for (let port = from; port < from + 100; port++) if (await portIsFree(port)) return port;
  throw new Error(`no free port in ${from}-${from + 99} on 127.0.0.1`);
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface CollectorOptions {
  port: number;
  labDir: string;
  dbFile: string;
  log: string;
  token: string;
  /** IBWATCH_* settings over the e2e defaults (fast cron scans, no jitter, no grace period). */
  env?: Record<string, string>;
  /** Called with the PID as soon as it is spawned, before it is ready (to record it for teardown). */
  onSpawn?: (pid: number) => void;
}

/**
 * Starts the real collector (`apps/collector/src/server.ts`) on the lab with the e2e settings and
 * waits for /api/ready. Only our own IBWATCH_* settings reach it: a developer's shell exports
 * must not change the run. Returns its PID; on failure it is killed and the log tail is thrown.
 */
export async function startCollector(o: CollectorOptions): Promise<number> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')),
  );
  Object.assign(env, {
    IBWATCH_SOURCE: 'lab',
    IBWATCH_LAB_DIR: o.labDir,
    IBWATCH_DB: o.dbFile,
    IBWATCH_HOST: '127.0.0.1',
    IBWATCH_PORT: String(o.port),
    IBWATCH_TOKEN: o.token,
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_JITTER_MS: '0',
    IBWATCH_LOG_LEVEL: 'info',
    ...o.env,
  });
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
    await waitReady(`http://127.0.0.1:${o.port}`, pid, o.log);
  } catch (err) {
    if (collectorAlive(pid)) process.kill(pid, 'SIGKILL');
    throw err;
  }
  return pid;
}

async function waitReady(baseURL: string, pid: number, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!collectorAlive(pid))
      throw new Error(`the collector (pid ${pid}) exited during start-up; log tail:\n${tail(log)}`);
    try {
      const res = await fetch(`${baseURL}/api/ready`);
      if (res.status === 200) return;
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
