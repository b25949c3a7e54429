import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '@ibwatch/testkit';
import { startLab, stopLab } from '@ibwatch/lab';
import { startCollector, stopCollector, tail } from './collector.ts';
import { STATE_FILE } from './state.ts';

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

/** This fabric's IBWATCH_* settings over the e2e defaults, with `peers` listed as its peers. */
function fabricEnv(c: FleetCollector, peers: FleetCollector[]): Record<string, string> {
  const env: Record<string, string> = {
    IBWATCH_READS_NEED_TOKEN: String(c.readsNeedToken),
    IBWATCH_FABRIC_NAME: c.name,
    IBWATCH_CRON_PM: '0 * * * * *',
    IBWATCH_CRON_SM: '*/30 * * * * *',
    IBWATCH_CRON_TOPOLOGY: '*/30 * * * * *',
    IBWATCH_IBDIAGNET_OUT: join(c.labDir, '..', `${c.name}-ibdiagnet`),
  };
  if (peers.length) {
    env.IBWATCH_PEERS = peers.map((p) => `${p.name}=${p.baseURL}`).join(',');
    const tokens = peers.filter((p) => p.readsNeedToken).map((p) => `${p.name}=${p.token}`);
    if (tokens.length) env.IBWATCH_PEER_TOKENS = tokens.join(',');
  }
  return env;
}

/** Starts the collector of `c` on a port the kernel picks, recording its PID and URL. */
async function start(c: FleetCollector, state: FleetState, peers: FleetCollector[]): Promise<void> {
  const save = () => writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
  const r = await startCollector({
    labDir: c.labDir,
    dbFile: c.dbFile,
    log: c.log,
    token: c.token,
    env: fabricEnv(c, peers),
    onSpawn: (pid) => {
      c.pid = pid;
      save();
    },
  });
  c.baseURL = r.baseURL;
  save();
}

/** Starts the three labs and their collectors; on failure stops what it started and says why. */
export async function startFleet(): Promise<FleetState> {
  const state: FleetState = { tmpDir: makeTempDir('ibwatch-e2e-fleet'), collectors: [] };
  writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
  try {
    state.collectors = FLEET.map((f) => ({
      name: f.name,
      gpus: f.gpus,
      labDir: join(state.tmpDir, `${f.name}-lab`),
      dbFile: join(state.tmpDir, `${f.name}.db`),
      log: join(state.tmpDir, `${f.name}.log`),
      baseURL: '',
      token: randomBytes(16).toString('hex'),
      readsNeedToken: 'readsNeedToken' in f && f.readsNeedToken,
      pid: null,
    }));
    writeFileSync(FLEET_STATE_FILE, JSON.stringify(state, null, 2));
    // One lab after the other: three OpenSM bring-ups at once on two busy cores stall sweeps.
    for (const c of state.collectors) await startLab({ gpus: c.gpus, tiers: 2, dir: c.labDir });
    // The peers first: plane-1 is configured with their addresses.
    const [first, ...others] = state.collectors;
    await Promise.all(others.map((c) => start(c, state, [])));
    await start(first!, state, others);
    return state;
  } catch (err) {
    const logs = state.collectors.map((c) => `--- ${c.name} (${c.log}):\n${tail(c.log)}`).join('\n');
    await stopFleet(state);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
}

/** Stops one collector this suite started, by PID. */
export const stopFleetCollector = async (c: FleetCollector): Promise<void> => {
  if (c.pid !== null) await stopCollector(c.pid);
};

/** Ends only what this suite started: the collectors by PID, the labs by their dirs. */
export async function stopFleet(state: FleetState): Promise<void> {
  for (const c of state.collectors) await stopFleetCollector(c);
  for (const c of state.collectors) await stopLab(c.labDir).catch(() => false);
  if (process.env.E2E_KEEP_TMP) console.log(`e2e: kept ${state.tmpDir} (fleet databases and logs)`);
  else removeDir(state.tmpDir);
  rmSync(FLEET_STATE_FILE, { force: true });
}
