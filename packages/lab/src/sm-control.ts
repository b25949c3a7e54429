/**
 * SM high-availability operations on a running lab: kill the master, wait for the standby to
 * take over, restart an SM.
 */
import { existsSync, renameSync } from 'node:fs';
import type { Lab } from './lab.ts';
import { isAlive, sleep } from './proc.ts';
import { fileSize, MASTER, startSm, STANDBY, stopSm, SUBNET_UP, waitForSmLine } from './sm.ts';
import type { SmState } from './state.ts';
import { parseSminfo } from './status.ts';

/** The lab SM that `sminfo` currently reports as master. */
export async function currentMaster(lab: Lab): Promise<SmState | undefined> {
  const r = await lab.runTool('sminfo', [], { timeoutMs: 10_000 });
  const info = r.exitCode === 0 ? parseSminfo(r.stdout) : undefined;
  return info ? lab.state.sms.find((s) => s.portGuid === info.guid) : undefined;
}

/**
 * Kills the current master SM (SIGKILL by its recorded PID — SIGTERM does no graceful handover
 * in OpenSM 3.3.23 either) and, unless `wait` is false, waits until the other SM logged
 * `Entering MASTER state` and `SUBNET UP`. With `sminfo_polling_timeout 1000` and
 * `polling_retry_number 2` that took 3-4 s in LAB.md. Returns the killed and the new master.
 */
export async function killMasterSm(lab: Lab, o: { wait?: boolean; timeoutMs?: number } = {}): Promise<{ killed: SmState; master: SmState }> {
  const killed = (await currentMaster(lab)) ?? lab.state.sms.find((s) => s.priority === 15 && s.pid !== null);
  if (!killed || killed.pid === null) throw new Error('no running master SM found');
  const other = lab.state.sms.find((s) => s !== killed);
  if (!other || other.pid === null || !isAlive(other.pid)) throw new Error('no standby SM running: killing the master would leave no SM');
  const logOffset = fileSize(other.log);
  const stdoutOffset = fileSize(other.stdout);
  await stopSm(killed, 0); // grace 0: straight to SIGKILL after TERM, like a crash
  killed.pid = null;
  lab.save();
  if (o.wait !== false) {
    const timeoutMs = o.timeoutMs ?? 30_000;
    await waitForSmLine(other, MASTER, { logOffset, stdoutOffset, timeoutMs });
    await waitForSmLine(other, SUBNET_UP, { logOffset, stdoutOffset, timeoutMs });
  }
  return { killed, master: other };
}

/**
 * (Re)starts a lab SM that is not running and waits until it is settled: the priority-15 SM
 * becomes master at once (the other logs `Entering STANDBY state`), the priority-1 SM reaches
 * `Entering STANDBY state` when a master exists.
 */
export async function restartSm(lab: Lab, id: 'a' | 'b', o: { timeoutMs?: number } = {}): Promise<SmState> {
  const sm = lab.state.sms.find((s) => s.id === id);
  if (!sm) throw new Error(`no SM "${id}"`);
  if (sm.pid !== null && isAlive(sm.pid)) return sm;
  const other = lab.state.sms.find((s) => s !== sm);
  const otherUp = !!other && other.pid !== null && isAlive(other.pid);
  const timeoutMs = o.timeoutMs ?? 30_000;
  if (otherUp) {
    // Starting a higher-priority SM right after a takeover (within the new master's first
    // sweeps) left it cycling DISCOVERING/STANDBY without SUBNET UP in our tests; let the current
    // master answer sminfo and finish a sweep first.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await currentMaster(lab)) !== other) await sleep(200);
    await sleep(2500);
  }
  // opensm truncates its log at start; keep the previous run's log for post-mortems.
  if (existsSync(sm.log)) renameSync(sm.log, `${sm.log}.${Date.now()}`);
  const logOffset = 0;
  const stdoutOffset = fileSize(sm.stdout);
  const otherOffsets = other ? { logOffset: fileSize(other.log), stdoutOffset: fileSize(other.stdout) } : undefined;
  const s = lab.state;
  sm.pid = await startSm(sm, { umad2sim: s.paths.umad2sim, sockName: s.sockName, roots: s.paths.roots });
  lab.save();
  const outranks = !otherUp || (other !== undefined && sm.priority > other.priority);
  if (outranks) {
    await waitForSmLine(sm, SUBNET_UP, { logOffset, stdoutOffset, timeoutMs });
    if (otherUp && other && otherOffsets) await waitForSmLine(other, STANDBY, { ...otherOffsets, timeoutMs });
  } else {
    await waitForSmLine(sm, STANDBY, { logOffset, stdoutOffset, timeoutMs });
  }
  return sm;
}
