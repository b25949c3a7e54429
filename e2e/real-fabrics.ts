import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { portIsFree, tail, waitReady } from './global-setup.ts';
import { collectorAlive, REPO_ROOT, STATE_FILE } from './state.ts';

/**
 * Collectors on the two real NDR fabrics (packages/parsers/fixtures/ibdiagnet2-runs), for the
 * `real-fabrics` Playwright project: each its own database, filled the way an operator would
 * fill it (`ibwatch import ibdiagnet DIR`), then `IBWATCH_SOURCE=import-only` serving it. They
 * are independent of the lab and of each other, and run beside the lab collector.
 */
export const REAL_RUNS = {
  a: resolve(REPO_ROOT, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-a'),
  b: resolve(REPO_ROOT, 'packages/parsers/fixtures/ibdiagnet2-runs/ndr-fat-tree-b'),
} as const;
export type RealRun = keyof typeof REAL_RUNS;

export interface RealCollector {
  run: RealRun;
  baseURL: string;
  dbFile: string;
  log: string;
  pid: number | null;
}

export interface RealState {
  tmpDir: string;
  token: string;
  collectors: RealCollector[];
}

/** Beside the lab suite's state file (E2E_STATE_FILE moves both). */
export const REAL_STATE_FILE = STATE_FILE.replace(/(\.json)?$/, '.real-fabrics.json');

export function readRealState(): RealState {
  try {
    return JSON.parse(readFileSync(REAL_STATE_FILE, 'utf8')) as RealState;
  } catch (err) {
    throw new Error(`no real-fabrics state at ${REAL_STATE_FILE} (its setup project did not run): ${String(err)}`);
  }
}

/** Only our own IBWATCH_* settings: a developer's shell exports must not change the run. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')),
  );
  return { ...out, IBWATCH_SOURCE: 'import-only', IBWATCH_LOG_LEVEL: 'info', ...extra };
}

/** A free port from 3200 on (the lab collector takes 3100-3199). */
async function freePort(taken: Set<number>): Promise<number> {
  for (let port = 3200; port < 3300; port++) if (!taken.has(port) && (await portIsFree(port))) return port;
  throw new Error('no free port in 3200-3299 on 127.0.0.1 for the real-fabric collectors');
}

/** Imports one real run with the CLI into a fresh database, then serves it. */
async function startOne(run: RealRun, state: RealState, port: number): Promise<void> {
  const dbFile = join(state.tmpDir, `${run}.db`);
  const log = join(state.tmpDir, `${run}.log`);
  const c: RealCollector = { run, baseURL: `http://127.0.0.1:${port}`, dbFile, log, pid: null };
  state.collectors.push(c);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'apps/collector/src/cli.ts', 'import', 'ibdiagnet', REAL_RUNS[run], '--json'],
    { cwd: REPO_ROOT, env: env({ IBWATCH_DB: dbFile }) },
  );
  const scan = JSON.parse(stdout) as { status: string; error: string | null };
  if (scan.status === 'failed') throw new Error(`import of ${REAL_RUNS[run]} failed: ${scan.error}`);
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/collector/src/server.ts'], {
    cwd: REPO_ROOT,
    env: env({
      IBWATCH_DB: dbFile,
      IBWATCH_HOST: '127.0.0.1',
      IBWATCH_PORT: String(port),
      IBWATCH_TOKEN: state.token,
    }),
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (child.pid === undefined) throw new Error(`could not spawn the collector of run ${run}`);
  child.unref();
  c.pid = child.pid;
  writeFileSync(REAL_STATE_FILE, JSON.stringify(state, null, 2));
  await waitReady(c.baseURL, child.pid, log);
}

/** Starts a collector per real run; on failure stops what it started and says why. */
export async function startRealCollectors(): Promise<RealState> {
  const state: RealState = {
    tmpDir: makeTempDir('ibwatch-e2e-real'),
    token: randomBytes(16).toString('hex'),
    collectors: [],
  };
  writeFileSync(REAL_STATE_FILE, JSON.stringify(state, null, 2));
  try {
    const taken = new Set<number>();
    const ports: [RealRun, number][] = [];
    for (const run of Object.keys(REAL_RUNS) as RealRun[]) {
      const port = await freePort(taken);
      taken.add(port);
      ports.push([run, port]);
    }
    await Promise.all(ports.map(([run, port]) => startOne(run, state, port)));
    return state;
  } catch (err) {
    const logs = state.collectors.map((c) => `--- run ${c.run} (${c.log}):\n${tail(c.log)}`).join('\n');
    await stopRealCollectors(state);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends only the collectors this suite started, by PID, then removes their databases. */
export async function stopRealCollectors(state: RealState): Promise<void> {
  for (const c of state.collectors) {
    if (c.pid === null || !collectorAlive(c.pid)) continue;
    process.kill(c.pid, 'SIGTERM');
    for (let i = 0; i < 50 && collectorAlive(c.pid); i++) await sleep(100);
    if (collectorAlive(c.pid)) process.kill(c.pid, 'SIGKILL');
  }
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (real-fabric databases and logs)`);
  else removeDir(state.tmpDir);
  rmSync(REAL_STATE_FILE, { force: true });
}
