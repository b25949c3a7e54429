import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLab, stopLab } from '@ibwatch/lab';
import { portIsFree, tail, waitReady } from './global-setup.ts';
import { REPO_ROOT, STATE_FILE, stopCollectorPid } from './state.ts';

/**
 * Three fabrics for the `fleet` Playwright project (specs `7N-fleet-*`): three small labs (each
 * its own ibsim socket and OpenSMs in its own temp dir) and a collector on each. `plane-1`
 * serves the fleet wall with the other two as peers; `plane-3` needs a token for reads, which
 * plane-1 has (IBWATCH_PEER_TOKENS). Slow cron schedules: the specs scan through the API, so the
 * three labs, three collectors and Chromium leave the two cores some room.
 */
export const FLEET = [
  { name: 'plane-1', gpus: 32 },
  { name: 'plane-2', gpus: 48 },
  { name: 'plane-3', gpus: 64, readsNeedToken: true },
] as const;
export type FabricName = (typeof FLEET)[number]['name'];

export interface FleetCollector {
  name: FabricName;
  gpus: number;
  labDir: string;
  dbFile: string;
  log: string;
  baseURL: string;
  /** Its own write (and, for plane-3, read) token. */
  token: string;
  readsNeedToken: boolean;
  pid: number | null;
}

export interface FleetState {
  tmpDir: string;
  collectors: FleetCollector[];
}

/** Beside the lab suite's state file (E2E_STATE_FILE moves both). */
export const FLEET_STATE_FILE = STATE_FILE.replace(/(\.json)?$/, '.fleet.json');

export function readFleetState(): FleetState {
  try {
    return JSON.parse(readFileSync(FLEET_STATE_FILE, 'utf8')) as FleetState;
  } catch (err) {
    throw new Error(`no fleet state at ${FLEET_STATE_FILE} (its setup project did not run): ${String(err)}`);
  }
}

export function fleetCollector(name: FabricName): FleetCollector {
  const c = readFleetState().collectors.find((x) => x.name === name);
  if (!c) throw new Error(`no fleet collector ${name}`);
  return c;
}

/** Free ports from 3300 on (the lab collector takes 3100-3199, the real-fabric ones 3200-3299). */
async function freePorts(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let port = 3300; port < 3400 && out.length < n; port++) if (await portIsFree(port)) out.push(port);
  if (out.length < n) throw new Error('not enough free ports in 3300-3399 on 127.0.0.1 for the fleet collectors');
  return out;
}

/** Only our own IBWATCH_* settings: a developer's shell exports must not change the run. */
function collectorEnv(c: FleetCollector, peers: FleetCollector[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')),
  );
  const port = new URL(c.baseURL).port;
  Object.assign(env, {
    IBWATCH_SOURCE: 'lab',
    IBWATCH_LAB_DIR: c.labDir,
    IBWATCH_DB: c.dbFile,
    IBWATCH_HOST: '127.0.0.1',
    IBWATCH_PORT: port,
    IBWATCH_TOKEN: c.token,
    IBWATCH_READS_NEED_TOKEN: String(c.readsNeedToken),
    IBWATCH_FABRIC_NAME: c.name,
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_JITTER_MS: '0',
    IBWATCH_CRON_PM: '0 * * * * *',
    IBWATCH_CRON_SM: '*/30 * * * * *',
    IBWATCH_CRON_TOPOLOGY: '*/30 * * * * *',
    IBWATCH_IBDIAGNET_OUT: join(c.labDir, '..', `${c.name}-ibdiagnet`),
    IBWATCH_LOG_LEVEL: 'info',
  });
  if (peers.length) {
    env.IBWATCH_PEERS = peers.map((p) => `${p.name}=${p.baseURL}`).join(',');
    const tokens = peers.filter((p) => p.readsNeedToken).map((p) => `${p.name}=${p.token}`);
    if (tokens.length) env.IBWATCH_PEER_TOKENS = tokens.join(',');
  }
  return env;
}

function spawnCollector(c: FleetCollector, state: FleetState, peers: FleetCollector[]): number {
  const out = openSync(c.log, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/collector/src/server.ts'], {
    cwd: REPO_ROOT,
    env: collectorEnv(c, peers),
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (child.pid === undefined) throw new Error(`could not spawn the collector of ${c.name}`);
  child.unref();
  c.pid = child.pid;
  writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
  return child.pid;
}

/** Starts the three labs and their collectors; on failure stops what it started and says why. */
export async function startFleet(): Promise<FleetState> {
  const state: FleetState = { tmpDir: mkdtempSync(join(tmpdir(), 'ibwatch-e2e-fleet-')), collectors: [] };
  writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
  try {
    const ports = await freePorts(FLEET.length);
    state.collectors = FLEET.map((f, i) => ({
      name: f.name,
      gpus: f.gpus,
      labDir: join(state.tmpDir, `${f.name}-lab`),
      dbFile: join(state.tmpDir, `${f.name}.db`),
      log: join(state.tmpDir, `${f.name}.log`),
      baseURL: `http://127.0.0.1:${ports[i]}`,
      token: randomBytes(16).toString('hex'),
      readsNeedToken: 'readsNeedToken' in f && f.readsNeedToken,
      pid: null,
    }));
    writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
    // One lab after the other: three OpenSM bring-ups at once on two busy cores stall sweeps.
    for (const c of state.collectors) await startLab({ gpus: c.gpus, tiers: 2, dir: c.labDir });
    const [first, ...others] = state.collectors;
    const pids = [spawnCollector(first!, state, others), ...others.map((c) => spawnCollector(c, state, []))];
    await Promise.all(state.collectors.map((c, i) => waitReady(c.baseURL, pids[i]!, c.log)));
    return state;
  } catch (err) {
    const logs = state.collectors.map((c) => `--- ${c.name} (${c.log}):\n${tail(c.log)}`).join('\n');
    await stopFleet(state);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
}

/** Stops one collector this suite started, by PID. */
export const stopCollector = (c: FleetCollector): Promise<void> => stopCollectorPid(c.pid);

/** Ends only what this suite started: the collectors by PID, the labs by their dirs. */
export async function stopFleet(state: FleetState): Promise<void> {
  for (const c of state.collectors) await stopCollector(c);
  for (const c of state.collectors) await stopLab(c.labDir).catch(() => false);
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (fleet databases and logs)`);
  else rmSync(state.tmpDir, { recursive: true, force: true });
  rmSync(FLEET_STATE_FILE, { force: true });
}
