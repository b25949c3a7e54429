import type { SmEventRow, SmHaResult, SmObservation } from '@ibwatch/fabric';
import { hostOf } from '../names.ts';

/** One timeline row to write; `foldable` rows are part of a failover written in the same sweep. */
export interface SmChange {
  kind: SmEventRow['kind'];
  fromGuid: string | null;
  toGuid: string | null;
  detail: string;
  after?: number | null;
  foldable?: boolean;
}

/** Event kinds an earlier sweep wrote during a takeover, folded into the failover row. */
export const FOLDED_BY_FAILOVER = ['no-master', 'not-seen', 'state-change', 'recovered'] as const;

/** How the timeline names an SM: its host (`head-01` of `head-01 mlx5_0`), else its node, else the GUID. */
export function smName(sm: { guid: string; nodeDescription?: string }): string {
  return sm.nodeDescription ? (hostOf(sm.nodeDescription) ?? sm.nodeDescription) : sm.guid;
}

const masterWord = (sms: readonly SmObservation[]) => {
  const n = sms.filter((s) => s.state === 'MASTER').length;
  return n === 1 ? 'ok' : n === 0 ? 'no-master' : 'split-brain';
};

/**
 * The timeline rows one SM observation adds, compared with the previous one (null for the first
 * observation ever). A failover is one row, "master moved from head-01 to head-02", with the time
 * window in `after`; the changes it is made of (the new master's STANDBY -> MASTER, the old
 * master's silence or demotion, "one master again") are marked foldable.
 */
export function smChanges(o: {
  previous: readonly SmObservation[] | null;
  current: readonly SmObservation[];
  /** GUIDs of every SM seen before this observation (answering or not). */
  seenBefore: ReadonlySet<string>;
  ha: SmHaResult;
  /** When the old master was last seen as the single master. */
  lastMasterAt: number | null;
  isDesignated: (guid: string) => boolean;
  /** Node name of any SM by GUID, seen now or not (the old master of a failover may be gone). */
  nodeName: (guid: string) => string | null;
}): SmChange[] {
  const { previous, current, ha } = o;
  const name = (guid: string | null | undefined) =>
    guid ? smName({ guid, nodeDescription: o.nodeName(guid) ?? undefined }) : '?';
  const failover = ha.failover;
  const inFailover = (guid: string) => failover !== undefined && (guid === failover.from || guid === failover.to);
  const changes: SmChange[] = [];
  if (previous !== null) {
    const prev = new Map(previous.map((s) => [s.guid, s]));
    for (const s of current) {
      const p = prev.get(s.guid);
      // OpenSM passes through DISCOVERING at every start and takeover, and a standby whose master
      // died flickers STANDBY -> DISCOVERING -> STANDBY; the table shows an SM that stays there.
      if (p && p.state !== s.state && p.state !== 'DISCOVERING' && s.state !== 'DISCOVERING')
        changes.push({
          kind: 'state-change',
          fromGuid: s.guid,
          toGuid: null,
          detail: `${name(s.guid)}: ${p.state} -> ${s.state} (priority ${s.priority})`,
          foldable: inFailover(s.guid),
        });
      if (p) continue;
      const what =
        `${name(s.guid)} ${o.seenBefore.has(s.guid) ? 'answers again' : 'appeared'} as ${s.state} ` +
        `(priority ${s.priority})`;
      changes.push(
        !o.isDesignated(s.guid)
          ? { kind: 'rogue', fromGuid: s.guid, toGuid: null, detail: `${what}: not a designated SM` }
          : o.seenBefore.has(s.guid)
            ? { kind: 'seen-again', fromGuid: s.guid, toGuid: null, detail: what }
            : { kind: 'state-change', fromGuid: s.guid, toGuid: null, detail: what },
      );
    }
    const now = new Set(current.map((s) => s.guid));
    for (const p of previous) {
      if (now.has(p.guid)) continue;
      changes.push({
        kind: 'not-seen',
        fromGuid: p.guid,
        toGuid: null,
        detail: `${name(p.guid)} (was ${p.state}, priority ${p.priority}) stopped answering`,
        foldable: failover?.from === p.guid,
      });
    }
  }
  const before = previous?.length ? masterWord(previous) : 'ok';
  const after = masterWord(current);
  if (after !== before)
    changes.push({
      kind: after === 'ok' ? 'recovered' : after,
      fromGuid: null,
      toGuid: ha.master ?? null,
      detail:
        after === 'ok'
          ? `one master again: ${name(ha.master)}`
          : after === 'no-master'
            ? 'no SM is MASTER'
            : `${current.filter((s) => s.state === 'MASTER').length} SMs claim MASTER`,
      foldable: after === 'ok' && failover !== undefined,
    });
  if (failover) {
    const old = current.find((s) => s.guid === failover.from);
    const parts = [
      `master moved from ${name(failover.from)} to ${name(failover.to)}`,
      old ? `${name(old.guid)} is now ${old.state}` : `${name(failover.from)} stopped answering`,
      ...(o.isDesignated(failover.to) ? [] : [`${name(failover.to)} is not a designated SM`]),
    ];
    changes.push({
      kind: 'failover',
      fromGuid: failover.from,
      toGuid: failover.to,
      detail: parts.join('; '),
      after: o.lastMasterAt,
    });
  }
  return changes;
}
