/**
 * The lab state file (`<dir>/state.json`): everything another process needs to use or tear
 * down a running lab — PIDs, socket name, paths. Written atomically (tmp + rename).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TopologyOptions } from './generator.ts';
import type { TopologyShape } from './topology.ts';
import type { IbsimLimits } from './netfile.ts';

export const STATE_VERSION = 1;

/** One OpenSM instance of the lab. */
export interface SmState {
  /**
   * `a` = priority 15 (intended master), `b` = priority 1 (standby); roles can swap on failover.
   * A rogue SM (fault `rogue-sm`) is `rogue-<host>`.
   */
  id: string;
  priority: number;
  /** Head-node HCA it is attached at (`SIM_HOST`). */
  host: string;
  /** Port GUID of that HCA (what sminfo / saquery SMIR report). */
  portGuid: string;
  /** PID of the running opensm, or null after it was killed. */
  pid: number | null;
  dir: string;
  conf: string;
  log: string;
  stdout: string;
}

export interface LabState {
  version: number;
  /** Absolute lab dir. */
  dir: string;
  /** Absolute run dir (FIFO, outputs, SM dirs, scratch); removed on teardown. */
  runDir: string;
  sockName: string;
  createdAt: string;
  options: TopologyOptions;
  shape: TopologyShape;
  counts: { switches: number; cas: number; links: number };
  limits: IbsimLimits;
  routing: string;
  paths: {
    netfile: string;
    roots: string;
    nodeNameMap: string;
    topologyJson: string;
    fifo: string;
    simOut: string;
    scratch: string;
    umad2sim: string;
  };
  ibsim: { pid: number };
  /** The lab's own two SMs, `a` and `b`. */
  sms: SmState[];
  /** SMs started where none should run (fault `rogue-sm`); absent when there never was one. */
  rogueSms?: SmState[];
  /** Bring-up timings in ms. */
  timings: { generateMs: number; ibsimReadyMs: number; masterUpMs: number; standbyUpMs: number; totalMs: number };
}

export function stateFile(dir: string): string {
  return join(dir, 'state.json');
}

export function writeState(s: LabState): void {
  const f = stateFile(s.dir);
  writeFileSync(f + '.tmp', JSON.stringify(s, null, 2) + '\n');
  renameSync(f + '.tmp', f);
}

/** Reads the state file, or undefined if there is none. Throws on a corrupt or foreign file. */
export function readState(dir: string): LabState | undefined {
  let text: string;
  try {
    text = readFileSync(stateFile(dir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const s = JSON.parse(text) as LabState;
  if (s.version !== STATE_VERSION) throw new Error(`${stateFile(dir)}: unsupported state version ${s.version}`);
  return s;
}
