/**
 * The lab runner: ibsim + two OpenSMs (master priority 15, standby priority 1) on a generated
 * fat-tree, started detached so the lab outlives its starter, described by a state file so any
 * process can attach, and torn down by recorded PID.
 */
import { execFile } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { generateTopology, type TopologyOptions } from './generator.ts';
import { ibsimLimits, writeNetfile, writeRootsFile } from './netfile.ts';
import { writeNodeNameMap } from './node-name-map.ts';
import { isAlive, sleep, spawnDetached } from './proc.ts';
import { prepareSm, routingEngineFromLog, startSm, SUBNET_UP, waitForSmLine } from './sm.ts';
import { bringUpPair, joinStandby } from './sm-pair.ts';
import { readState, STATE_VERSION, writeState, type LabState } from './state.ts';
import { stopLabState } from './teardown.ts';
import { findUmad2sim } from './tools.ts';
import { Lab } from './lab.ts';

export interface StartLabOptions extends TopologyOptions {
  /** Lab dir (created if needed). State file, topology files and the run dir go here. */
  dir: string;
  /** Abstract socket name; default unique per lab. */
  sockName?: string;
  /** OpenSM sweep_interval in seconds. Default 2. */
  sweepInterval?: number;
  /** Bring-up timeout (ibsim ready + master up + standby), default 60 s + 30 s per 1,000 GPUs. */
  timeoutMs?: number;
}

/** Thrown by {@link startLab} when `dir` already holds a running lab. */
export class LabAlreadyRunningError extends Error {
  constructor(readonly state: LabState) {
    super(
      `a lab is already running in ${state.dir} (ibsim pid ${state.ibsim.pid}, socket ` +
        `${state.sockName}); run "lab down" first`,
    );
  }
}

/** True if the state's ibsim is still running. */
export function labIsRunning(s: LabState): boolean {
  return isAlive(s.ibsim.pid);
}

function mkfifo(path: string): Promise<void> {
  return new Promise((res, rej) =>
    execFile('mkfifo', ['-m', '600', path], { timeout: 10_000 }, (err) =>
      err ? rej(new Error(`mkfifo ${path}: ${err.message}`)) : res(),
    ),
  );
}

async function waitForFileText(
  path: string,
  needle: string,
  pid: number,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (text.includes(needle)) return;
    if (!isAlive(pid))
      throw new Error(
        `${what} (pid ${pid}) exited before "${needle}":\n${text.trimEnd().split('\n').slice(-12).join('\n')}`,
      );
    if (Date.now() > deadline) throw new Error(`${what}: no "${needle}" in ${path} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/**
 * Generates the topology, starts ibsim and both SMs, and resolves once the master logged
 * `SUBNET UP` and the standby `Entering STANDBY state`. On any failure everything already
 * started is stopped again before the error is rethrown.
 */
export async function startLab(o: StartLabOptions): Promise<Lab> {
  const t0 = performance.now();
  const dir = resolve(o.dir);
  const existing = readState(dir);
  if (existing) {
    if (labIsRunning(existing)) throw new LabAlreadyRunningError(existing);
    await stopLabState(existing); // stale state from a crashed lab: clean up what is left
  }
  const timeoutMs = o.timeoutMs ?? 60_000 + Math.ceil(o.gpus / 1000) * 30_000;
  const deadline = Date.now() + timeoutMs;
  const left = (): number => Math.max(1000, deadline - Date.now());

  const topoOpts: TopologyOptions = {
    gpus: o.gpus,
    tiers: o.tiers,
    radix: o.radix,
    gpusPerNode: o.gpusPerNode,
    speed: o.speed,
    width: o.width,
    leavesPerPod: o.leavesPerPod,
    headNodes: o.headNodes,
  };
  const topo = generateTopology(topoOpts);
  const runDir = join(dir, 'run');
  const topoDir = join(dir, 'topology');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(join(runDir, 'scratch'), { recursive: true });
  mkdirSync(topoDir, { recursive: true });
  const paths = {
    netfile: join(topoDir, 'lab.net'),
    roots: join(topoDir, 'roots.guids'),
    nodeNameMap: join(topoDir, 'node-name-map'),
    topologyJson: join(topoDir, 'topology.json'),
    fifo: join(runDir, 'sim.in'),
    simOut: join(runDir, 'sim.out'),
    scratch: join(runDir, 'scratch'),
    umad2sim: await findUmad2sim(),
  };
  writeFileSync(paths.netfile, writeNetfile(topo));
  writeFileSync(paths.roots, writeRootsFile(topo));
  writeFileSync(paths.nodeNameMap, writeNodeNameMap(topo));
  writeFileSync(paths.topologyJson, JSON.stringify(topo));
  const generateMs = performance.now() - t0;

  const limits = ibsimLimits(topo);
  const sockName = o.sockName ?? `ibwatch-lab-${process.pid}-${randomBytes(4).toString('hex')}`;
  const byName = new Map(topo.nodes.map((n) => [n.name, n]));
  const sms = (['a', 'b'] as const).map((id, i) =>
    prepareSm({
      id,
      priority: id === 'a' ? 15 : 1,
      host: topo.smHosts[i],
      portGuid: byName.get(topo.smHosts[i])?.portGuid ?? '',
      runDir,
      roots: paths.roots,
      sweepInterval: o.sweepInterval ?? 2,
    }),
  );
  const state: LabState = {
    version: STATE_VERSION,
    dir,
    runDir,
    sockName,
    createdAt: new Date().toISOString(),
    options: topoOpts,
    shape: topo.shape,
    counts: {
      switches: topo.nodes.filter((n) => n.type === 'switch').length,
      cas: topo.nodes.filter((n) => n.type === 'ca').length,
      links: topo.links.length,
    },
    limits,
    routing: 'ftree',
    paths,
    ibsim: { pid: 0 },
    sms,
    timings: { generateMs, ibsimReadyMs: 0, masterUpMs: 0, standbyUpMs: 0, totalMs: 0 },
  };

  try {
    await mkfifo(paths.fifo);
    // O_RDWR on a FIFO never blocks on Linux, and because ibsim inherits a reader+writer fd its
    // console never sees EOF ("ibsim -s net </dev/null" spun at 99.6% CPU in docs/lab.md).
    const fifoFd = openSync(paths.fifo, constants.O_RDWR);
    try {
      const t1 = performance.now();
      state.ibsim.pid = await spawnDetached(
        'ibsim',
        ['-s', '-N', String(limits.nodes), '-S', String(limits.switches), '-P', String(limits.ports), paths.netfile],
        {
          cwd: runDir,
          outFile: paths.simOut,
          stdinFd: fifoFd,
          env: { PATH: process.env.PATH, IBSIM_SOCKNAME: sockName },
        },
      );
      writeState(state);
      await waitForFileText(paths.simOut, 'Network simulator ready', state.ibsim.pid, left(), 'ibsim');
      state.timings.ibsimReadyMs = performance.now() - t1;
    } finally {
      closeSync(fifoFd);
    }
    const env = { umad2sim: paths.umad2sim, sockName, roots: paths.roots };
    const t2 = performance.now();
    sms[0].pid = await startSm(sms[0], env);
    writeState(state);
    await waitForSmLine(sms[0], SUBNET_UP, { timeoutMs: left() });
    state.timings.masterUpMs = performance.now() - t2;
    state.routing = routingEngineFromLog(sms[0]) ?? 'unknown';
    const t3 = performance.now();
    // The master's sweep after the standby attaches can stall under ibsim (sm-pair.ts): check it
    // finished, else restart the pair.
    const lab = new Lab(state, topo);
    if (!(await joinStandby(lab, sms[0], sms[1], left())))
      await bringUpPair(lab, sms[0], sms[1], { timeoutMs: left() });
    state.routing = routingEngineFromLog(sms[0]) ?? state.routing;
    state.timings.standbyUpMs = performance.now() - t3;
    state.timings.totalMs = performance.now() - t0;
    writeState(state);
  } catch (e) {
    await stopLabState(state);
    throw e;
  }
  return new Lab(state, topo);
}

/** Attaches to a lab started by any process, from its state file. Throws if none is running. */
export async function attachLab(dir: string): Promise<Lab> {
  const s = readState(resolve(dir));
  if (!s) throw new Error(`no lab state in ${resolve(dir)} (start one with "pnpm lab up")`);
  if (!labIsRunning(s))
    throw new Error(
      `the lab in ${s.dir} is not running (ibsim pid ${s.ibsim.pid} is gone); run "lab down" to clean up`,
    );
  return new Lab(s);
}

/** Stops the lab in `dir` if there is one; returns false if there was no state file. */
export async function stopLab(dir: string): Promise<boolean> {
  const s = readState(resolve(dir));
  if (!s) return false;
  await stopLabState(s);
  return true;
}
