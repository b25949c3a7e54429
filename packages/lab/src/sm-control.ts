/**
 * SM high-availability operations on a running lab: kill the master, wait for the standby to
 * take over, restart an SM.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import type { Lab } from './lab.ts';
import { isAlive } from './proc.ts';
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
  // ibsim drops a client only when a write to it fails; free the dead SM's slot right away.
  await lab.freeLeakedClients();
  if (o.wait !== false) {
    const timeoutMs = o.timeoutMs ?? 30_000;
    await waitForSmLine(other, MASTER, { logOffset, stdoutOffset, timeoutMs });
    await waitForSmLine(other, SUBNET_UP, { logOffset, stdoutOffset, timeoutMs });
  }
  return { killed, master: other };
}

/**
 * Why a higher-priority SM is never brought back while the lower-priority one is MASTER
 * (measured with ibsim 0.10 + OpenSM 3.3.23, `log_flags 0x87`):
 * OpenSM's fail-back is the in-band handover: the new SM goes DISCOVERING -> STANDBY, the master
 * sees it on its next heavy sweep and logs
 *   `state_mgr_send_handover: Handing over mastership. Updating sm_state_mgr master_guid: ...`
 * then `Entering STANDBY state`. In 7 of 8 restarts the HANDOVER landed while the new SM was still
 * DISCOVERING (ignored), so it only became MASTER after its SMInfo polls of the now-standby old
 * master ran out (`STANDBY -> DISCOVERING -> MASTER -> SUBNET UP`, ~5-10 s). The one time the
 * HANDOVER reached it in STANDBY (the protocol's intended path: `Entering STANDBY state`, then
 * `Entering MASTER state` 135 ms later) its first heavy sweep stalled after hop 0 for good: all
 * opensm threads idle in futex waits, no ERR line, no `SUBNET UP`, SIGHUP ignored. opensm waits for
 * every outstanding MAD before it routes, and ibsim only emulates timeouts for MADs it cannot
 * route; a forwarded SM-to-SM reply it cannot match to a client is dropped silently
 * (`process_packet: no one to handle pkt: class 0x81, attr 0x20` in sim.out, 18 times in that run),
 * so the waiting SM never gets a reply and never times out. Load makes that path more likely:
 * the new SM reaches STANDBY before the master's next sweep sends the HANDOVER.
 * So restartSm does a cold fail-back instead (see there). The takeover after a master dies goes
 * through polling timeouts, not HANDOVER, and is not affected.
 */
export const HANDOVER_STALL_HINT =
  'opensm logged "Entering MASTER state" but no "SUBNET UP": its sweep is waiting for a MAD ibsim dropped ' +
  '(an SMInfo handover reply, "no one to handle pkt: class 0x81, attr 0x20" in sim.out), which ibsim never times out';

async function waitUp(sm: SmState, o: { logOffset: number; stdoutOffset: number; timeoutMs: number }): Promise<void> {
  try {
    await waitForSmLine(sm, SUBNET_UP, o);
  } catch (e) {
    const log = existsSync(sm.log) ? readFileSync(sm.log, 'utf8') : '';
    const stalled = log.includes(MASTER) && !log.slice(log.lastIndexOf(MASTER)).includes(SUBNET_UP);
    throw stalled ? new Error(`${(e as Error).message}
${HANDOVER_STALL_HINT}`) : e;
  }
}

/**
 * (Re)starts a lab SM that is not running and resolves once it is settled.
 * - The other SM is not running: start this one alone and wait for `SUBNET UP`.
 * - This SM has the lower priority: start it and wait for `Entering STANDBY state`.
 * - This SM has the higher priority and the other is MASTER (fail-back after a takeover): cold
 *   fail-back. The other SM is stopped (TERM), this one started alone (`SUBNET UP`), then the
 *   other one started again as standby (`Entering STANDBY state`). This avoids OpenSM's in-band
 *   HANDOVER, whose sweep stalls for good under ibsim (see {@link HANDOVER_STALL_HINT}); the
 *   fabric has no SM for the ~1 s in between, which a restart would not have on real hardware.
 * Leaked ibsim client slots (e.g. of the SIGKILLed master) are freed before each start.
 */
export async function restartSm(lab: Lab, id: 'a' | 'b', o: { timeoutMs?: number } = {}): Promise<SmState> {
  const sm = lab.state.sms.find((s) => s.id === id);
  if (!sm) throw new Error(`no SM "${id}"`);
  if (sm.pid !== null && isAlive(sm.pid)) return sm;
  const other = lab.state.sms.find((s) => s !== sm);
  const otherUp = !!other && other.pid !== null && isAlive(other.pid);
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  const left = (): number => Math.max(1000, deadline - Date.now());
  if (other && otherUp && sm.priority > other.priority) {
    await stopSm(other);
    other.pid = null;
    lab.save();
    await launch(lab, sm, 'up', left());
    await launch(lab, other, 'standby', left());
    return sm;
  }
  await launch(lab, sm, otherUp ? 'standby' : 'up', left());
  return sm;
}

async function launch(lab: Lab, sm: SmState, until: 'up' | 'standby', timeoutMs: number): Promise<void> {
  // A SIGKILLed opensm keeps its ibsim slot ("Client 0: pid 9845 connected at "head-01 mlx5_0" ...
  // qp 0" stayed listed next to its successor) until ibsim fails a write to it.
  await lab.freeLeakedClients();
  // opensm truncates its log at start; keep the previous run's log for post-mortems.
  if (existsSync(sm.log)) renameSync(sm.log, `${sm.log}.${Date.now()}`);
  const offsets = { logOffset: 0, stdoutOffset: fileSize(sm.stdout), timeoutMs };
  const s = lab.state;
  sm.pid = await startSm(sm, { umad2sim: s.paths.umad2sim, sockName: s.sockName, roots: s.paths.roots });
  lab.save();
  if (until === 'up') await waitUp(sm, offsets);
  else await waitForSmLine(sm, STANDBY, offsets);
}
