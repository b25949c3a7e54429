import type { SmStatus } from './api.ts';
import type { Verdict } from './findings.ts';
import type { Guid, SmObservation, SmState } from './types.ts';

/**
 * An SM ibwatch knows but that may not answer now: last state and priority, and when it was
 * last seen. A designated SM that never answered has no `last`.
 */
export interface KnownSm {
  guid: Guid;
  nodeDescription?: string;
  portNum?: number;
  last?: { state: SmState; priority: number; at: string };
}

/** Which SM ports are designated (configured, or learned from the first SMs seen). */
export interface DesignatedSms {
  isDesignated(guid: Guid): boolean;
  /** How many SMs are designated: with one, "no standby" is the design, not a loss. */
  count: number;
}

/** Input for {@link evaluateSmHa}: the SMs seen by this sweep and what is known from before. */
export interface SmHaInput {
  current: readonly SmObservation[];
  /** The SMs that answered the previous observation (ActCount progress, default failover baseline). */
  previous?: readonly SmObservation[];
  /** Sweep time (ISO-8601). */
  now: string;
  /** Time of the previous observation. */
  previousAt?: string;
  /**
   * The last single master seen before this sweep and when. Defaults to the previous
   * observation's: a takeover spans sweeps with no master, and is still one failover from it.
   */
  lastMaster?: { sm: SmObservation; at: string };
  /**
   * Every SM known from before that does not answer now, or might not (designated ones never
   * seen included). Defaults to the previous observation's SMs.
   */
  known?: readonly KnownSm[];
  /** Absent: no SM port is designated yet, so none is judged rogue and every SM is expected. */
  designation?: DesignatedSms;
}

export interface SmHaResult {
  verdicts: Verdict[];
  status: Exclude<SmStatus, 'unknown'>;
  /** GUID of the single master, when there is exactly one. */
  master?: Guid;
  /** Master change vs the last single master. */
  failover?: { from: Guid; to: Guid; after?: string; before: string };
}

/** `dgx-0003 mlx5_0 port 1 (0x…)`, or the GUID alone when the port is not known yet. */
export function smLabel(sm: { guid: Guid; nodeDescription?: string; portNum?: number }): string {
  if (!sm.nodeDescription) return sm.guid;
  return `${sm.nodeDescription}${sm.portNum === undefined ? '' : ` port ${sm.portNum}`} (${sm.guid})`;
}

/** The status word a set of verdicts amounts to (worst first). */
function statusOf(verdicts: readonly Verdict[]): Exclude<SmStatus, 'unknown'> {
  const has = (kind: string) => verdicts.some((v) => v.kind === kind);
  if (has('sm-split-brain')) return 'split-brain';
  if (has('sm-no-master')) return 'no-master';
  if (has('sm-rogue')) return 'rogue';
  if (has('sm-no-standby')) return 'no-standby';
  if (has('sm-not-seen')) return 'sm-missing';
  return 'ok';
}

/**
 * Subnet-manager verdicts. Exactly one MASTER is expected, at a designated SM port, with at least
 * one designated STANDBY. Conditions that still hold are re-asserted by every sweep, so the
 * finding they keep open can never resolve itself while the SM is still dead or still rogue.
 * - `sm-no-master` (critical): no SM in MASTER state: no one will route around a failure.
 * - `sm-split-brain` (critical): two or more MASTERs (two subnets fighting over LIDs/routes).
 * - `sm-rogue` (critical): an SM answers at a port that is not designated — typically OFED's
 *   `opensmd` left enabled on a compute node; with priority 15 it takes the subnet.
 * - `sm-failover` (major): the master changed since the last single master; evidence carries
 *   from/to GUIDs and the time window.
 * - `sm-not-seen` (major): a designated SM seen before (or configured) does not answer.
 * - `sm-no-standby` (major; minor when only one SM is designated): no designated STANDBY, so a
 *   master failure leaves the fabric without an SM.
 * - `sm-priority` (minor): a standby with priority >= the master's. OpenSM breaks ties by lower
 *   port GUID and hands over to a higher priority SM, so the "backup" may take the subnet at
 *   its next restart: `sm_priority` should be strictly lower on standbys.
 * - `sm-master-stalled` (major): the master's ActCount did not advance ("ActCount increases
 *   while an SM is alive").
 */
export function evaluateSmHa(input: SmHaInput): SmHaResult {
  const { current, previous, now, designation } = input;
  const designated = (guid: Guid) => designation?.isDesignated(guid) ?? true;
  const verdicts: Verdict[] = [];
  const masters = current.filter((s) => s.state === 'MASTER');
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
      title: `Split brain: ${masters.length} subnet managers are MASTER (${masters.map(smLabel).join(', ')})`,
      short: `${masters.length} master SMs`,
      evidence: { masters: masters.map((s) => ({ guid: s.guid, priority: s.priority, lid: s.lid ?? null })) },
    });
  }
  const master = masters.length === 1 ? masters[0]! : undefined;
  const result: SmHaResult = { verdicts, status: 'ok' };
  if (master) result.master = master.guid;

  for (const s of current) {
    if (designated(s.guid)) continue;
    const isMaster = s.state === 'MASTER';
    verdicts.push({
      kind: 'sm-rogue',
      severity: 'critical',
      subject: { kind: 'sm', guid: s.guid },
      title:
        `Subnet manager running where none should: ${smLabel(s)} is ${s.state}, priority ${s.priority}` +
        (isMaster ? ', and is the master routing the fabric' : ''),
      short: isMaster ? 'rogue SM is MASTER' : 'rogue SM',
      evidence: {
        guid: s.guid,
        node: s.nodeDescription ?? null,
        port: s.portNum ?? null,
        state: s.state,
        priority: s.priority,
        lid: s.lid ?? null,
      },
    });
  }

  const prevMasters = (previous ?? []).filter((s) => s.state === 'MASTER');
  const lastMaster: { sm: SmObservation; at?: string } | undefined =
    input.lastMaster ?? (prevMasters.length === 1 ? { sm: prevMasters[0]!, at: input.previousAt } : undefined);
  if (master && lastMaster && lastMaster.sm.guid !== master.guid) {
    result.failover = { from: lastMaster.sm.guid, to: master.guid, before: now };
    if (lastMaster.at) result.failover.after = lastMaster.at;
    verdicts.push({
      kind: 'sm-failover',
      severity: 'major',
      subject: { kind: 'sm', guid: master.guid },
      title: `Subnet manager failover: master moved from ${smLabel(lastMaster.sm)} to ${smLabel(master)}`,
      short: 'SM failover',
      evidence: { from: lastMaster.sm.guid, to: master.guid, between: lastMaster.at ?? null, and: now },
    });
  }
  const prevMaster = prevMasters.length === 1 ? prevMasters[0]! : undefined;
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
      title: `Master subnet manager ${smLabel(master)} is not sweeping (ActCount stuck at ${master.activityCount})`,
      short: 'master SM stalled',
      evidence: {
        activityCount: master.activityCount.toString(),
        previousActivityCount: prevMaster.activityCount.toString(),
      },
    });
  }

  const answering = new Set(current.map((s) => s.guid));
  const known: readonly KnownSm[] =
    input.known ??
    (previous ?? []).map((p) => ({
      guid: p.guid,
      nodeDescription: p.nodeDescription,
      portNum: p.portNum,
      last: { state: p.state, priority: p.priority, at: input.previousAt ?? now },
    }));
  for (const k of known) {
    // A rogue SM that went away is good news; an SM that said it is NOTACTIVE meant to stop.
    if (answering.has(k.guid) || !designated(k.guid) || k.last?.state === 'NOTACTIVE') continue;
    verdicts.push({
      kind: 'sm-not-seen',
      severity: 'major',
      subject: { kind: 'sm', guid: k.guid },
      title: k.last
        ? `Subnet manager ${smLabel(k)} stopped answering (last seen ${k.last.state}, priority ${k.last.priority})`
        : `Designated subnet manager ${smLabel(k)} has never answered`,
      short: 'SM not seen',
      evidence: {
        guid: k.guid,
        lastState: k.last?.state ?? null,
        priority: k.last?.priority ?? null,
        lastSeen: k.last?.at ?? null,
      },
    });
  }

  const standbys = current.filter((s) => s.state === 'STANDBY' && designated(s.guid));
  if (master && standbys.length === 0) {
    const single = designation !== undefined && designation.count <= 1;
    verdicts.push({
      kind: 'sm-no-standby',
      severity: single ? 'minor' : 'major',
      subject: subnet,
      title: single
        ? `No standby subnet manager: only one SM is designated, so a failure of ${smLabel(master)} ` +
          `leaves the fabric without one`
        : `No standby subnet manager: a failure of the master ${smLabel(master)} would leave the fabric without one`,
      short: 'no standby SM',
      evidence: { master: master.guid, designatedCount: designation?.count ?? null },
    });
  }

  // Against a rogue master the priority of the real SMs says nothing: the rogue finding does.
  if (master && designated(master.guid)) {
    for (const s of standbys) {
      if (s.priority < master.priority) continue;
      verdicts.push({
        kind: 'sm-priority',
        severity: 'minor',
        subject: { kind: 'sm', guid: s.guid },
        title:
          `Standby subnet manager ${smLabel(s)} has priority ${s.priority}, ` +
          `${s.priority === master.priority ? 'equal to' : 'above'} the master's ${master.priority}`,
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
  result.status = statusOf(verdicts);
  return result;
}
