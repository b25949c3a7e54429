import type { Verdict } from './findings.ts';
import type { Guid, SmObservation } from './types.ts';

/** Input for {@link evaluateSmHa}: the SMs seen by this sweep and, optionally, by the previous one. */
export interface SmHaInput {
  current: readonly SmObservation[];
  previous?: readonly SmObservation[];
  /** Sweep time (ISO-8601). */
  now: string;
  /** Time of the previous observation; a failover happened between the two. */
  previousAt?: string;
}

export interface SmHaResult {
  verdicts: Verdict[];
  /** GUID of the single master, when there is exactly one. */
  master?: Guid;
  /** Master change vs the previous observation. */
  failover?: { from: Guid; to: Guid; after?: string; before: string };
}

function label(sm: SmObservation): string {
  return sm.nodeDescription ? `${sm.nodeDescription} (${sm.guid})` : sm.guid;
}

/**
 * Subnet-manager high-availability verdicts. Exactly one MASTER is expected.
 * - `sm-no-master` (critical): no SM in MASTER state: no one will route around a failure.
 * - `sm-split-brain` (critical): two or more MASTERs (two subnets fighting over LIDs/routes).
 * - `sm-failover` (major): the master GUID changed since the previous observation; evidence
 *   carries from/to GUIDs and the time window.
 * - `sm-standby-lost` (major): an SM seen before (STANDBY or MASTER that is no longer master)
 *   no longer answers.
 * - `sm-priority` (minor): a standby with priority >= the master's. OpenSM breaks ties by lower
 *   port GUID and hands over to a higher priority SM, so the "backup" may take the subnet at
 *   its next restart: `sm_priority` should be strictly lower on standbys.
 * - `sm-master-stalled` (major): the master's ActCount did not advance ("ActCount increases
 *   while an SM is alive").
 */
export function evaluateSmHa(input: SmHaInput): SmHaResult {
  const { current, previous, now } = input;
  const verdicts: Verdict[] = [];
  const masters = current.filter((s) => s.state === 'MASTER');
  const result: SmHaResult = { verdicts };
  const subnet = { kind: 'sm' as const };
  if (masters.length === 0) {
    verdicts.push({
      kind: 'sm-no-master',
      severity: 'critical',
      subject: subnet,
      title: current.length
        ? `No master subnet manager: ${current.length} SM(s) seen, none MASTER`
        : 'No subnet manager answered',
      short: 'no master SM',
      evidence: { sms: current.map((s) => ({ guid: s.guid, state: s.state, priority: s.priority })) },
    });
  } else if (masters.length > 1) {
    verdicts.push({
      kind: 'sm-split-brain',
      severity: 'critical',
      subject: subnet,
      title: `Split brain: ${masters.length} subnet managers are MASTER (${masters.map(label).join(', ')})`,
      short: `${masters.length} master SMs`,
      evidence: { masters: masters.map((s) => ({ guid: s.guid, priority: s.priority, lid: s.lid ?? null })) },
    });
  }
  const master = masters.length === 1 ? masters[0]! : undefined;
  if (master) result.master = master.guid;

  const prevMasters = (previous ?? []).filter((s) => s.state === 'MASTER');
  const prevMaster = prevMasters.length === 1 ? prevMasters[0]! : undefined;
  if (master && prevMaster && prevMaster.guid !== master.guid) {
    result.failover = {
      from: prevMaster.guid,
      to: master.guid,
      before: now,
      ...(input.previousAt ? { after: input.previousAt } : {}),
    };
    verdicts.push({
      kind: 'sm-failover',
      severity: 'major',
      subject: { kind: 'sm', guid: master.guid },
      title: `Subnet manager failover: master moved from ${label(prevMaster)} to ${label(master)}`,
      short: 'SM failover',
      evidence: { from: prevMaster.guid, to: master.guid, between: input.previousAt ?? null, and: now },
    });
  }
  if (
    master &&
    prevMaster &&
    prevMaster.guid === master.guid &&
    master.activityCount !== undefined &&
    prevMaster.activityCount !== undefined &&
    master.activityCount <= prevMaster.activityCount
  ) {
    verdicts.push({
      kind: 'sm-master-stalled',
      severity: 'major',
      subject: { kind: 'sm', guid: master.guid },
      title: `Master subnet manager ${label(master)} is not sweeping (ActCount stuck at ${master.activityCount})`,
      short: 'master SM stalled',
      evidence: {
        activityCount: master.activityCount.toString(),
        previousActivityCount: prevMaster.activityCount.toString(),
      },
    });
  }

  const seenNow = new Set(current.map((s) => s.guid));
  for (const p of previous ?? []) {
    if (seenNow.has(p.guid) || p.state === 'NOTACTIVE') continue;
    // An old master that vanished after a failover is reported too: the standby pool shrank.
    verdicts.push({
      kind: 'sm-standby-lost',
      severity: 'major',
      subject: { kind: 'sm', guid: p.guid },
      title: `Subnet manager ${label(p)} (was ${p.state}) stopped answering`,
      short: 'SM stopped answering',
      evidence: { guid: p.guid, previousState: p.state, priority: p.priority },
    });
  }

  if (master) {
    for (const s of current) {
      if (s.state !== 'STANDBY' || s.priority < master.priority) continue;
      verdicts.push({
        kind: 'sm-priority',
        severity: 'minor',
        subject: { kind: 'sm', guid: s.guid },
        title: `Standby subnet manager ${label(s)} has priority ${s.priority}, ${s.priority === master.priority ? 'equal to' : 'above'} the master's ${master.priority}`,
        short: `standby priority ${s.priority} >= master ${master.priority}`,
        evidence: {
          standby: s.guid,
          standbyPriority: s.priority,
          master: master.guid,
          masterPriority: master.priority,
        },
      });
    }
  }
  return result;
}
