/**
 * A subnet manager where none should run — the classic incident of OFED's `opensmd` left enabled
 * on a compute node: a third OpenSM attached at a compute HCA, priority 15 by default. With the
 * master's priority and a lower port GUID (compute HCAs are 0xb83fd20300..., heads
 * 0xb83fd203ff...) it takes the subnet: its log shows `Entering MASTER state` / `SUBNET UP` at
 * once, and the old master logs `Entering STANDBY state`. Killed, the lab's priority-15 SM takes
 * the subnet back by polling timeout (~4 s: `ERR 3120: Timeout while getting attribute 0x20
 * (SMInfo)`, then `Entering MASTER state`).
 */
import { existsSync, renameSync } from 'node:fs';
import type { Lab } from './lab.ts';
import { clearFaults, noteFault } from './fault-log.ts';
import { isAlive, sleep } from './proc.ts';
import { currentMaster } from './sm-control.ts';
import {
  fileSize,
  MASTER,
  prepareSm,
  smLogSince,
  STANDBY,
  startSm,
  stopSm,
  SUBNET_UP,
  tail,
  waitForAnySmLine,
  waitForSmLine,
} from './sm.ts';
import { sweepBudgetMs, SWEEP_STALL_HINT } from './sm-pair.ts';
import type { SmState } from './state.ts';
import { parseSminfo } from './status.ts';
import type { TopoNode } from './topology.ts';

/**
 * The HCA a rogue SM attaches at: `dgx-0003` (its first HCA) or `dgx-0003 mlx5_2`. Head nodes are
 * refused: each already has a lab SM, and ibsim allows one SM per node ("SM already exists").
 */
export function hcaForRogue(lab: Lab, host: string): TopoNode {
  const want = host.trim();
  const hcas = lab.topology().nodes.filter((n) => n.type === 'ca');
  const node = hcas.find((n) => n.name === want) ?? hcas.find((n) => n.host === want);
  if (!node) throw new Error(`no HCA "${want}" in the lab (e.g. "dgx-0003" or "dgx-0003 mlx5_0")`);
  const taken = [...lab.state.sms, ...(lab.state.rogueSms ?? [])].find((s) => s.host === node.name && s.pid !== null);
  if (taken) throw new Error(`"${node.name}" already runs SM ${taken.id}: ibsim allows one SM per node`);
  return node;
}

/**
 * Starts an OpenSM at `host`'s HCA with `priority` (default 15) and waits until it has settled:
 * MASTER with its sweep done (`SUBNET UP`), or STANDBY. Recorded in the lab state (`rogueSms`),
 * so teardown stops it too.
 *
 * A rogue that outranks the master goes DISCOVERING -> STANDBY, gets the master's HANDOVER
 * (`Entering MASTER state` 0.3-1.5 s later), sweeps again and logs `SUBNET UP`. In about one start
 * of five under ibsim its sweep after the handover never ends (`Entering MASTER state`, then
 * nothing: the stall of sm-pair.ts); the SA then answers no query and the fabric has no working
 * master. Such a start is undone (the lab's SM takes the subnet back) and tried again.
 */
export async function startRogueSm(
  lab: Lab,
  host: string,
  o: { priority?: number; timeoutMs?: number; attempts?: number } = {},
): Promise<{ sm: SmState; state: 'MASTER' | 'STANDBY' }> {
  const node = hcaForRogue(lab, host);
  const priority = o.priority ?? 15;
  if (!Number.isInteger(priority) || priority < 0 || priority > 15)
    throw new Error(`SM priority must be 0-15, got ${priority}`);
  const s = lab.state;
  const id = `rogue-${node.host ?? node.name.replace(/\s+/g, '_')}`;
  const sm = prepareSm({
    id,
    priority,
    host: node.name,
    portGuid: node.portGuid ?? node.guid,
    runDir: s.runDir,
    roots: s.paths.roots,
    sweepInterval: 2,
  });
  const deadline = Date.now() + (o.timeoutMs ?? 120_000);
  const handoverWaitMs = outranks(priority, sm.portGuid, await currentMaster(lab))
    ? Math.max(HANDOVER_WAIT_MS, sweepBudgetMs(lab))
    : HANDOVER_WAIT_MS;
  const attempts = o.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    await lab.freeLeakedClients();
    // Keep the previous run's log for post-mortems; read the new one from its start.
    if (existsSync(sm.log)) renameSync(sm.log, `${sm.log}.${Date.now()}`);
    const stdoutOffset = fileSize(sm.stdout);
    sm.pid = await startSm(sm, { umad2sim: s.paths.umad2sim, sockName: s.sockName, roots: s.paths.roots });
    s.rogueSms = [...(s.rogueSms ?? []).filter((r) => r.id !== id), sm];
    lab.save();
    noteFault(s.runDir, {
      key: `rogue-sm ${id}`,
      kind: 'rogue-sm',
      where: `"${sm.host}" (port GUID ${sm.portGuid})`,
      what: `rogue OpenSM, priority ${priority}, pid ${sm.pid}`,
    });
    const left = () => Math.max(1000, deadline - Date.now());
    const first = await waitForAnySmLine(sm, [SUBNET_UP, STANDBY], { stdoutOffset, timeoutMs: left() });
    if (first === STANDBY) {
      try {
        await waitForSmLine(sm, MASTER, { stdoutOffset, timeoutMs: handoverWaitMs });
      } catch {
        if (sm.pid !== null && isAlive(sm.pid)) return { sm, state: 'STANDBY' };
        throw new Error(`rogue SM ${id} exited after entering STANDBY. Log tail:\n${tail(sm)}`);
      }
    }
    try {
      await waitForSmLine(sm, SUBNET_UP, { stdoutOffset, timeoutMs: Math.min(left(), sweepBudgetMs(lab)) });
      return { sm, state: 'MASTER' };
    } catch (e) {
      console.warn(
        `ibwatch lab: rogue SM ${id} took the subnet but its sweep stalled (attempt ${attempt}); undoing it`,
      );
      await stopRogueSms(lab, { timeoutMs: left() });
      if (attempt >= attempts || Date.now() > deadline)
        throw new Error(
          `rogue SM ${id} never finished a sweep as master (${attempt} attempts): ` +
            `${SWEEP_STALL_HINT}\n${(e as Error).message}`,
        );
    }
  }
}

/**
 * How long a rogue in STANDBY is watched for the master's HANDOVER when it does not outrank the
 * master (seen after 0.3-1.5 s when it does). One that outranks it is waited for as long as a
 * sweep may take: the master hands over from its next sweep, and one CI run under load saw no
 * HANDOVER within 5 s, so a rogue that would have taken the subnet was reported STANDBY.
 */
const HANDOVER_WAIT_MS = 5_000;

/** Whether an SM of `priority` at `portGuid` wins mastership from `master` (IBA: priority, then the lower GUID). */
export function outranks(priority: number, portGuid: string, master: SmState | undefined): boolean {
  if (!master) return true;
  if (priority !== master.priority) return priority > master.priority;
  return BigInt(portGuid) < BigInt(master.portGuid);
}

/**
 * Stops every rogue SM (SIGKILL, like the crash or `systemctl stop` that ends such an incident),
 * frees their ibsim slots, and when one of them was MASTER waits until a lab SM has taken the
 * subnet back (`Entering MASTER state`, then `SUBNET UP`). Returns the SMs stopped.
 */
export async function stopRogueSms(lab: Lab, o: { timeoutMs?: number } = {}): Promise<SmState[]> {
  const rogues = (lab.state.rogueSms ?? []).filter((r) => r.pid !== null && isAlive(r.pid));
  clearFaults(lab.state.runDir, (f) => f.kind === 'rogue-sm');
  if (rogues.length === 0) {
    lab.state.rogueSms = [];
    lab.save();
    return [];
  }
  // Its own log says whether a rogue took the subnet (sminfo may time out when its sweep stalled).
  const r = await lab.runTool('sminfo', [], { timeoutMs: 10_000 });
  const master = r.exitCode === 0 ? parseSminfo(r.stdout)?.guid : undefined;
  const rogueWasMaster = rogues.some((x) => x.portGuid === master || lastState(x) === MASTER);
  const own = lab.state.sms.filter((x) => x.pid !== null && isAlive(x.pid));
  const offsets = new Map(own.map((x) => [x, { logOffset: fileSize(x.log), stdoutOffset: fileSize(x.stdout) }]));
  for (const x of rogues) await stopSm(x, 0);
  lab.state.rogueSms = [];
  lab.save();
  // The dead rogue keeps its ibsim slot until a write to it fails, and a MAD forwarded to it is
  // dropped without a timeout: the next master's sweep would wait forever (sm-pair.ts).
  await lab.freeLeakedClients();
  if (rogueWasMaster && own.length > 0) {
    const deadline = Date.now() + (o.timeoutMs ?? 60_000);
    // Whichever lab SM wins (the priority-15 one, normally) logs MASTER, then SUBNET UP.
    for (;;) {
      const took = own.find((x) => smLogSince(x, offsets.get(x)!.logOffset).includes(MASTER));
      if (took) {
        const left = Math.max(10_000, deadline - Date.now());
        await waitForSmLine(took, SUBNET_UP, { ...offsets.get(took)!, timeoutMs: left });
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`no lab SM took the subnet back within ${o.timeoutMs ?? 60_000} ms after the rogue SM stopped`);
      await lab.freeLeakedClients();
      await sleep(500);
    }
    const now = await currentMaster(lab);
    if (!now) throw new Error('the rogue SM stopped, but sminfo names no lab SM as master');
  }
  return rogues;
}

/** The last `Entering ... state` line of an SM's log. */
function lastState(sm: SmState): string | undefined {
  const states = smLogSince(sm, 0).match(/Entering \w+ state/g);
  return states?.at(-1);
}
