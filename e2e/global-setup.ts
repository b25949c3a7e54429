import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLab, stopLab } from '@ibwatch/lab';
import { collectorAlive, OUTPUT_DIR, REPO_ROOT, STATE_FILE, type E2eState } from './state.ts';

const READY_TIMEOUT_MS = 60_000;

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/** E2E_PORT when set (it must be free), else the first free port from 3100. */
async function choosePort(): Promise<number> {
  if (process.env.E2E_PORT) {
    const port = Number(process.env.E2E_PORT);
    if (!(await portIsFree(port))) throw new Error(`E2E_PORT=${port} is already in use on 127.0.0.1`);
    return port;
  }
  for (let port = 3100; port < 3200; port++) if (await portIsFree(port)) return port;
  throw new Error('no free port in 3100-3199 on 127.0.0.1 (set E2E_PORT)');
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export async function waitReady(baseURL: string, pid: number, log: string): Promise<void> {
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
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `the collector was not ready within ${READY_TIMEOUT_MS / 1000} s (last: ${last}); log tail:\n${tail(log)}`,
  );
}

/**
 * Starts a 256-GPU 3-tier lab (ibsim + two OpenSMs) in a temp dir and the real collector on it
 * with fast cron scans, waits for /api/ready and writes .state.json for the specs and teardown.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(resolve(REPO_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist/index.html is missing: build the web app first (pnpm build at the repo root)');
  }
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const port = await choosePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const tmpDir = mkdtempSync(join(tmpdir(), 'ibwatch-e2e-'));
  const state: E2eState = {
    baseURL,
    port,
    token: randomBytes(16).toString('hex'),
    tmpDir,
    labDir: join(tmpDir, 'lab'),
    dbFile: join(tmpDir, 'ibwatch.db'),
    collectorLog: join(tmpDir, 'collector.log'),
    collectorPid: null,
  };
  // Written before anything starts, so teardown can clean up after a half-finished setup.
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));

  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  try {
    await startLab({ gpus: 256, tiers: 3, dir: state.labDir });
    const labS = secs();
    // Only our own IBWATCH_* settings: a developer's shell exports must not change the run.
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')),
    );
    Object.assign(env, {
      IBWATCH_SOURCE: 'lab',
      IBWATCH_LAB_DIR: state.labDir,
      IBWATCH_DB: state.dbFile,
      IBWATCH_HOST: '127.0.0.1',
      IBWATCH_PORT: String(port),
      IBWATCH_TOKEN: state.token,
      IBWATCH_GRACE_PERIOD_MIN: '0',
      // Faults must stay on the worklist (cleared, not resolved) for the screenshots taken later.
      IBWATCH_AUTO_RESOLVE_MIN: '60',
      IBWATCH_JITTER_MS: '0',
      IBWATCH_CRON_PM: '*/5 * * * * *',
      IBWATCH_CRON_SM: '*/3 * * * * *',
      IBWATCH_CRON_TOPOLOGY: '*/10 * * * * *',
      IBWATCH_IBDIAGNET_OUT: join(tmpDir, 'ibdiagnet'),
      IBWATCH_LOG_LEVEL: 'info',
    });
    state.collectorEnv = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('IBWATCH_'))) as Record<
      string,
      string
    >;
    writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
    const out = openSync(state.collectorLog, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/collector/src/server.ts'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    if (child.pid === undefined) throw new Error('could not spawn the collector');
    child.unref();
    state.collectorPid = child.pid;
    writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
    await waitReady(baseURL, child.pid, state.collectorLog);
    console.log(
      `e2e: lab up in ${labS} s, collector ready at ${baseURL} after ${secs()} s (log ${state.collectorLog})`,
    );
  } catch (err) {
    if (state.collectorPid !== null && collectorAlive(state.collectorPid)) process.kill(state.collectorPid, 'SIGKILL');
    await stopLab(state.labDir).catch(() => false);
    // Playwright skips global-teardown when setup throws; the log tail is in the error already.
    if (!process.env.E2E_KEEP_TMP) rmSync(tmpDir, { recursive: true, force: true });
    rmSync(STATE_FILE, { force: true });
    throw err;
  }
}
