import type { SmEventRow, SmRow, SmState, SmSummary } from '@ibwatch/fabric';

const STATE_ORDER: Record<SmState, number> = { MASTER: 0, STANDBY: 1, DISCOVERING: 2, NOTACTIVE: 3, UNKNOWN: 4 };

/** MASTER first, then by priority (high first), then GUID. */
export function sortSms(sms: readonly SmRow[]): SmRow[] {
  return [...sms].sort(
    (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || b.priority - a.priority || a.guid.localeCompare(b.guid),
  );
}

/** The alarm banner for the page, or null when there is exactly one master. */
export function smAlarm(s: SmSummary): { tone: 'crit' | 'warn'; text: string } | null {
  if (s.status === 'split-brain')
    return { tone: 'crit', text: `✖ SPLIT BRAIN: ${s.masterCount} subnet managers claim MASTER at once.` };
  if (s.status === 'no-master')
    return { tone: 'crit', text: '✖ NO MASTER: no subnet manager is MASTER; the fabric cannot recover from changes.' };
  if (s.status === 'unknown') return { tone: 'warn', text: '? SM state unknown: no SM scan has completed.' };
  if (s.standbyCount === 0)
    return { tone: 'warn', text: '▲ No STANDBY subnet manager: a master failure would leave the fabric without one.' };
  return null;
}

/** GUID → "name (guid)" using the SM table; unknown GUIDs print as-is. */
export function smLabel(sms: readonly SmRow[], guid: string | null): string {
  if (!guid) return '—';
  const row = sms.find((s) => s.guid === guid);
  return row?.name ? `${row.name} (${guid})` : guid;
}

/** Newest first. */
export function sortEvents(events: readonly SmEventRow[]): SmEventRow[] {
  return [...events].sort((a, b) => b.at - a.at || b.id - a.id);
}
