import type { SmDesignation, SmEventRow, SmRow, SmState, SmSummary } from '@ibwatch/fabric';
import type { StatusLook } from '../../lib/status.ts';

const STATE_ORDER: Record<SmState, number> = { MASTER: 0, STANDBY: 1, DISCOVERING: 2, NOTACTIVE: 3, UNKNOWN: 4 };

/** Answering SMs first (MASTER first, then by priority, high first), then those not seen, newest first. */
export function sortSms(sms: readonly SmRow[]): SmRow[] {
  return [...sms].sort(
    (a, b) =>
      Number(b.answering) - Number(a.answering) ||
      (a.answering ? 0 : b.lastSeen - a.lastSeen) ||
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      b.priority - a.priority ||
      a.guid.localeCompare(b.guid),
  );
}

/** `dgx-0003 mlx5_0 port 1`, or the GUID when the port is not in the topology yet. */
export function smPlace(s: Pick<SmRow, 'guid' | 'name' | 'portNum'>): string {
  if (!s.name) return s.guid;
  return s.portNum === null ? s.name : `${s.name} port ${s.portNum}`;
}

export interface SmAlarm {
  kind: string;
  tone: 'crit' | 'bad' | 'warn';
  text: string;
}

/** Every alarm that holds for the page, worst first; empty when all is well. */
export function smAlarms(s: SmSummary, sms: readonly SmRow[]): SmAlarm[] {
  const alarms: SmAlarm[] = [];
  if (s.status === 'unknown')
    return [{ kind: 'unknown', tone: 'warn', text: '? SM state unknown: no SM scan has completed.' }];
  if (s.masterCount > 1)
    alarms.push({
      kind: 'split-brain',
      tone: 'crit',
      text: `✖ SPLIT BRAIN: ${s.masterCount} subnet managers claim MASTER at once.`,
    });
  if (s.masterCount === 0)
    alarms.push({
      kind: 'no-master',
      tone: 'crit',
      text: '✖ NO MASTER: no subnet manager is MASTER; the fabric cannot recover from changes.',
    });
  for (const r of sms.filter((x) => x.answering && !x.designated))
    alarms.push({
      kind: 'rogue',
      tone: 'crit',
      text:
        `✖ ROGUE SM on ${r.host ?? smPlace(r)}: a subnet manager (${r.state}, priority ${r.priority}) answers at ` +
        `${smPlace(r)}, which is not a designated SM port${r.state === 'MASTER' ? ', and it is the master' : ''}.`,
    });
  if (s.masterCount === 1 && s.standbyCount === 0)
    alarms.push({
      kind: 'no-standby',
      tone: 'bad',
      text: '▲ No STANDBY subnet manager: a master failure would leave the fabric without one.',
    });
  const missing = sms.filter((x) => !x.answering && x.designated);
  if (missing.length)
    alarms.push({
      kind: 'not-seen',
      tone: 'bad',
      text: `▲ Not answering: ${missing.map((m) => `${smPlace(m)} (last ${m.state})`).join(', ')}.`,
    });
  return alarms;
}

/**
 * The State cell: the state as seen now, or NOT SEEN when the SM did not answer the latest scan
 * (an alarm for a designated SM; good news for a rogue one).
 */
export function smStateLook(s: Pick<SmRow, 'answering' | 'state' | 'designated'>): StatusLook {
  if (!s.answering) return { icon: '✖', label: 'NOT SEEN', tone: s.designated ? 'crit' : 'muted' };
  if (s.state === 'MASTER') return { icon: '★', label: 'MASTER', tone: 'info' };
  if (s.state === 'STANDBY') return { icon: '●', label: 'STANDBY', tone: 'ok' };
  return { icon: '◆', label: s.state, tone: 'warn' };
}

/** Where the designated list comes from, in words. */
export function designationSource(d: SmDesignation): string {
  if (d.source === 'config') return 'set by IBWATCH_SM_GUIDS';
  if (d.source === 'learned') return 'learned from the SMs seen by an SM scan';
  return 'none yet: the SMs seen by the first SM scan become the designated ones';
}

const EVENT_LOOK: Record<SmEventRow['kind'], StatusLook> = {
  failover: { icon: '⇄', label: 'FAILOVER', tone: 'bad' },
  'split-brain': { icon: '✖', label: 'SPLIT BRAIN', tone: 'crit' },
  'no-master': { icon: '✖', label: 'NO MASTER', tone: 'crit' },
  rogue: { icon: '✖', label: 'ROGUE SM', tone: 'crit' },
  'not-seen': { icon: '▲', label: 'NOT SEEN', tone: 'bad' },
  'standby-lost': { icon: '▲', label: 'NOT SEEN', tone: 'bad' },
  'seen-again': { icon: '●', label: 'BACK', tone: 'ok' },
  recovered: { icon: '●', label: 'ONE MASTER', tone: 'ok' },
  learned: { icon: 'ℹ', label: 'DESIGNATED', tone: 'info' },
  priority: { icon: '◆', label: 'PRIORITY', tone: 'warn' },
  'state-change': { icon: '◆', label: 'STATE', tone: 'muted' },
};

/** Icon and label of a timeline row; an unknown kind is shown as itself. */
export function eventLook(kind: string): StatusLook {
  return EVENT_LOOK[kind as SmEventRow['kind']] ?? { icon: '◆', label: kind.toUpperCase(), tone: 'muted' };
}

/** Newest first. */
export function sortEvents(events: readonly SmEventRow[]): SmEventRow[] {
  return [...events].sort((a, b) => b.at - a.at || b.id - a.id);
}
