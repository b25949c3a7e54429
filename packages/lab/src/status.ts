/**
 * Lab status: every SM as the fabric reports it (`saquery SMIR`, plus `sminfo` for the master),
 * joined with the lab's own records (PID, host), and the fabric size.
 */
import type { SmObservation, SmState as SmRoleState } from '@ibwatch/fabric';
import { ParseError, parseSaquerySmir, parseSminfo as parseSminfoLines } from '@ibwatch/parsers';
import type { Lab } from './lab.ts';
import { isAlive } from './proc.ts';
import { type ActiveFault, readFaults } from './fault-log.ts';

export interface SmirRecord {
  lid: number;
  guid: string;
  priority: number;
  state: SmRoleState;
  activityCount: bigint;
}

/** The SMs a parser found, or none when it could not use the output (the lab then says "no SM"). */
function observations(parse: () => SmObservation[]): SmObservation[] {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ParseError) return [];
    throw err;
  }
}

function record(o: SmObservation): SmirRecord | undefined {
  if (o.lid === undefined) return undefined; // the lab addresses SMs by LID
  return { lid: o.lid, guid: o.guid, priority: o.priority, state: o.state, activityCount: o.activityCount ?? 0n };
}

/** `saquery SMIR` through @ibwatch/parsers: every SM record with a LID, GUID, priority and state. */
export function parseSmir(text: string): SmirRecord[] {
  return observations(() => parseSaquerySmir(text).value).flatMap((o) => record(o) ?? []);
}

/** `sminfo: sm lid 1 sm guid 0xb83fd203ff000101, activity count 12502 priority 15 state 3 SMINFO_MASTER`. */
export function parseSminfo(text: string): SmirRecord | undefined {
  const first = observations(() => parseSminfoLines(text).value)[0];
  return first && record(first);
}

export interface LabSmStatus {
  /** `a`, `b`, or `rogue-<host>` for an SM started by the `rogue-sm` fault. */
  id: string;
  host: string;
  guid: string;
  pid: number | null;
  running: boolean;
  /** Configured priority; the fabric-reported one is in `lid`/`state` when reachable. */
  priority: number;
  lid?: number;
  state: SmRoleState | 'DOWN';
}

export interface LabStatus {
  dir: string;
  sockName: string;
  ibsim: { pid: number; running: boolean };
  sms: LabSmStatus[];
  /** The master as `sminfo` reports it. */
  master?: { lid: number; guid: string; priority: number; host?: string };
  fabric: {
    gpus: number;
    tiers: number;
    radix: number;
    switches: number;
    cas: number;
    links: number;
    speed: string;
    width: string;
  };
  routing: string;
  /** Faults injected and not undone yet (fault-log.ts), oldest first. */
  faults: ActiveFault[];
  /** Problems met while querying (e.g. SA unreachable during a failover). */
  errors: string[];
}

/** Queries the lab's SMs (`saquery SMIR` and `sminfo`) and assembles the status. */
export async function labStatus(lab: Lab): Promise<LabStatus> {
  const s = lab.state;
  const errors: string[] = [];
  const [smir, sminfo] = await Promise.all([
    lab.runTool('saquery', ['SMIR'], { timeoutMs: 10_000 }),
    lab.runTool('sminfo', [], { timeoutMs: 10_000 }),
  ]);
  const records = smir.exitCode === 0 ? parseSmir(smir.stdout) : [];
  if (smir.exitCode !== 0)
    errors.push(`saquery SMIR: ${smir.timedOut ? 'timed out' : smir.stderr.trim().split('\n').pop()}`);
  const m = sminfo.exitCode === 0 ? parseSminfo(sminfo.stdout) : undefined;
  if (!m) errors.push(`sminfo: ${sminfo.timedOut ? 'timed out' : sminfo.stderr.trim().split('\n').pop()}`);
  // The SA's SMInfoRecords can be stale (right after bring-up the standby is still listed as
  // DISCOVERING), so each SM found there is asked directly with `sminfo <lid>`.
  const direct = await Promise.all(
    records.map(async (r) => {
      const d = await lab.runTool('sminfo', [String(r.lid)], { timeoutMs: 10_000 });
      return d.exitCode === 0 ? parseSminfo(d.stdout) : undefined;
    }),
  );
  const sms: LabSmStatus[] = [...s.sms, ...(s.rogueSms ?? [])].map((sm) => {
    const running = sm.pid !== null && isAlive(sm.pid);
    const rec =
      direct.find((r) => r?.guid === sm.portGuid) ??
      records.find((r) => r.guid === sm.portGuid) ??
      (m?.guid === sm.portGuid ? m : undefined);
    return {
      id: sm.id,
      host: sm.host,
      guid: sm.portGuid,
      pid: sm.pid,
      running,
      priority: rec?.priority ?? sm.priority,
      lid: rec?.lid,
      state: !running ? 'DOWN' : (rec?.state ?? 'UNKNOWN'),
    };
  });
  const topo = s.options;
  return {
    dir: s.dir,
    sockName: s.sockName,
    ibsim: { pid: s.ibsim.pid, running: isAlive(s.ibsim.pid) },
    sms,
    master: m
      ? {
          lid: m.lid,
          guid: m.guid,
          priority: m.priority,
          host: [...s.sms, ...(s.rogueSms ?? [])].find((x) => x.portGuid === m.guid)?.host,
        }
      : undefined,
    fabric: {
      gpus: s.shape.gpus,
      tiers: s.shape.tiers,
      radix: s.shape.radix,
      switches: s.counts.switches,
      cas: s.counts.cas,
      links: s.counts.links,
      speed: topo.speed ?? 'HDR',
      width: topo.width ?? '4X',
    },
    routing: s.routing,
    faults: readFaults(s.runDir),
    errors,
  };
}
