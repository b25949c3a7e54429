/**
 * SM high-availability operations on a running lab: kill the master, wait for the standby to
 * take over, restart an SM.
 */
import type { Lab } from './lab.ts';
import { isAlive } from './proc.ts';
import { launchSm, restartSm as restartPairSm, sweepBudgetMs } from './sm-pair.ts';
import { clearFaults, noteFault } from './fault-log.ts';
import { fileSize, MASTER, stopSm, SUBNET_UP, waitForSmLine } from './sm.ts';
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
 * `polling_retry_number 2` that takes 3-6 s (docs/lab.md). Returns the killed and the new master,
 * and `takeover`, which settles when the takeover is done (already settled unless `wait` is
 * false). A takeover whose sweep stalls (see {@link awaitTakeover}) is recovered by restarting
 * the new master — also with `wait: false`, where a caller watches the takeover meanwhile: not
 * waiting must not mean a stalled fabric (one CI run's standby never became MASTER that way).
 */
export async function killMasterSm(
  lab: Lab,
  o: { wait?: boolean; timeoutMs?: number } = {},
): Promise<{ killed: SmState; master: SmState; takeover: Promise<void> }> {
  const killed = (await currentMaster(lab)) ?? lab.state.sms.find((s) => s.priority === 15 && s.pid !== null);
  if (!killed || killed.pid === null) throw new Error('no running master SM found');
  const other = lab.state.sms.find((s) => s !== killed);
  if (!other || other.pid === null || !isAlive(other.pid))
    throw new Error('no standby SM running: killing the master would leave no SM');
  const logOffset = fileSize(other.log);
  const stdoutOffset = fileSize(other.stdout);
  await stopSm(killed, 0); // grace 0: straight to SIGKILL after TERM, like a crash
  killed.pid = null;
  lab.save();
  noteSmDown(lab, killed, 'killed (SIGKILL) while MASTER');
  // ibsim drops a client only when a write to it fails, and the MAD it failed to forward is lost
  // without a timeout (`client 0 seems to be dead - disconnecting.` / `write failed: Connection
  // refused - pkt dropped`): an SMInfo Get of the new master's sweep would wait forever (sm-pair.ts).
  await lab.freeLeakedClients();
  const takeover = awaitTakeover(lab, other, { logOffset, stdoutOffset }, o.timeoutMs ?? 60_000);
  if (o.wait !== false) await takeover;
  // Not awaited yet by a caller that watches meanwhile: its failure is theirs to see, not unhandled.
  else takeover.catch(() => undefined);
  return { killed, master: other, takeover };
}

/**
 * Waits for `sm` to log `Entering MASTER state` and then `SUBNET UP` after the offsets. The takeover
 * takes 3-6 s; its sweep can stall on ibsim like any sweep (sm-pair.ts): one CI run saw the standby
 * log `Entering DISCOVERING state` after its SMInfo polls timed out and nothing more for 60 s. So
 * a takeover that has not reached `SUBNET UP` within the sweep budget (plus the ~3 s of polling)
 * is a stall: the stuck SM is killed and started again alone, which makes it MASTER by itself,
 * and a `console.warn` line says so. Its old log is renamed, not truncated, so a reader keeps
 * the polling timeouts logged before the restart.
 */
async function awaitTakeover(
  lab: Lab,
  sm: SmState,
  offsets: { logOffset: number; stdoutOffset: number },
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const budgetMs = 3_000 + sweepBudgetMs(lab);
  const stallAt = Math.min(deadline, Date.now() + budgetMs);
  const waitFor = async (line: string, until: number): Promise<boolean> => {
    // Keep freeing dead clients while the standby takes over: on a loaded machine the dead
    // master's slot can still be registered when the standby's first polls reach it.
    for (;;) {
      try {
        await waitForSmLine(sm, line, { ...offsets, timeoutMs: Math.min(5_000, Math.max(1, until - Date.now())) });
        return true;
      } catch (err) {
        if (sm.pid === null || !isAlive(sm.pid)) throw err;
        if (Date.now() >= until) return false;
        await lab.freeLeakedClients();
      }
    }
  };
  if ((await waitFor(MASTER, stallAt)) && (await waitFor(SUBNET_UP, stallAt))) return;
  console.warn(
    `ibwatch lab: opensm ${sm.id} logged no "${SUBNET_UP}" within ${budgetMs} ms of ` +
      "the master's kill (a stalled sweep); restarting it alone",
  );
  await stopSm(sm, 0);
  sm.pid = null;
  lab.save();
  await launchSm(lab, sm, 'up', Math.max(10_000, deadline - Date.now()));
}

/**
 * Kills one lab SM by its recorded PID (SIGKILL, like a crash) and frees its ibsim slot, without
 * waiting for anything: a killed standby is simply gone; for the master use {@link killMasterSm},
 * which waits for the takeover.
 */
export async function killSm(lab: Lab, id: string): Promise<SmState> {
  const sm = lab.state.sms.find((s) => s.id === id);
  if (!sm) throw new Error(`no SM "${id}" (the lab's SMs are ${lab.state.sms.map((s) => s.id).join(', ')})`);
  if (sm.pid === null || !isAlive(sm.pid)) throw new Error(`SM ${id} ("${sm.host}") is not running`);
  await stopSm(sm, 0);
  sm.pid = null;
  lab.save();
  noteSmDown(lab, sm, 'killed (SIGKILL)');
  await lab.freeLeakedClients();
  return sm;
}

function noteSmDown(lab: Lab, sm: SmState, what: string): void {
  const where = `SM ${sm.id} ("${sm.host}", priority ${sm.priority})`;
  noteFault(lab.state.runDir, { key: `sm-down ${sm.id}`, kind: 'sm-down', where, what });
}

/** Restarts a lab SM (see sm-pair.ts) and takes its kill off the lab's fault list. */
export async function restartSm(lab: Lab, id: string, o: { timeoutMs?: number } = {}): Promise<SmState> {
  const sm = await restartPairSm(lab, id, o);
  clearFaults(lab.state.runDir, (f) => f.key === `sm-down ${id}`);
  return sm;
}

export { SWEEP_STALL_HINT } from './sm-pair.ts';
