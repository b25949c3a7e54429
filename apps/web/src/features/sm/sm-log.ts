import type { SmLogEvent } from '@ibwatch/fabric';
import type { StatusLook } from '../../lib/status.ts';

/**
 * What the SM's own log says, as the SM page lists it: the events an operator acts on. Routine
 * ones (`routing`, `sminfo-timeout` before a takeover, `remote-master`) are left to the full
 * list of the API; `ERR` lines are kept, since that is what a vendor case asks for.
 */
const SHOWN = new Set([
  'state',
  'handover',
  'standby-signal',
  'sm-port-down',
  'sm-port-up',
  'bind-failed',
  'sm-port-unknown',
  'exit',
  'subnet-up',
  'heavy-sweep',
  'polling-exhausted',
  'error',
]);

export function shownLogEvents(events: readonly SmLogEvent[]): SmLogEvent[] {
  return events.filter((e) => SHOWN.has(e.kind));
}

/** Badge of one log event. */
export function logEventLook(e: Pick<SmLogEvent, 'kind' | 'state' | 'errCode'>): StatusLook {
  switch (e.kind) {
    case 'state':
      return e.state === 'MASTER'
        ? { icon: '★', label: 'MASTER', tone: 'info' }
        : { icon: '◆', label: e.state ?? 'STATE', tone: 'muted' };
    case 'handover':
      return { icon: '⇄', label: 'HANDOVER', tone: 'info' };
    case 'standby-signal':
      return { icon: '⇄', label: 'TOLD TO STAND BY', tone: 'muted' };
    case 'sm-port-down':
      return { icon: '✖', label: 'SM PORT DOWN', tone: 'bad' };
    case 'sm-port-up':
      return { icon: '●', label: 'SM PORT UP', tone: 'ok' };
    case 'bind-failed':
      return { icon: '✖', label: 'BIND FAILED', tone: 'bad' };
    case 'sm-port-unknown':
      return { icon: '✖', label: `SM PORT UNKNOWN${e.errCode ? ` (ERR ${e.errCode})` : ''}`, tone: 'bad' };
    case 'exit':
      return { icon: '■', label: 'SM EXITED', tone: 'warn' };
    case 'subnet-up':
      return { icon: '●', label: 'SUBNET UP', tone: 'ok' };
    case 'heavy-sweep':
      return { icon: '↻', label: 'HEAVY SWEEP', tone: 'muted' };
    case 'polling-exhausted':
      return { icon: '▲', label: 'MASTER SILENT', tone: 'warn' };
    case 'error':
      return { icon: '▲', label: `ERR ${e.errCode ?? ''}`.trim(), tone: 'warn' };
    default:
      return { icon: '◆', label: e.kind.toUpperCase(), tone: 'muted' };
  }
}

/** `1374.8 ms`, `2.4 s`: a heavy sweep's duration. */
export function formatSweep(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
