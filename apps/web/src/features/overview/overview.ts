import type { ScanKind, ScanRow, SmSummary } from '@ibwatch/fabric';
import type { StatusLook } from '../../lib/status.ts';

/** Plain-words SM verdict for the wall screen. */
export function smVerdict(sm: SmSummary): { look: StatusLook; detail: string } {
  const failovers =
    sm.failoversLast24h > 0
      ? `${sm.failoversLast24h} failover${sm.failoversLast24h === 1 ? '' : 's'} in the last 24 h`
      : 'no failover in the last 24 h';
  switch (sm.status) {
    case 'ok':
      return {
        look: {
          icon: sm.failoversLast24h > 0 ? '▲' : '●',
          label: 'ONE MASTER',
          tone: sm.failoversLast24h > 0 ? 'warn' : 'ok',
        },
        detail: `${sm.masterName ?? sm.masterGuid ?? 'master'} · ${sm.standbyCount} standby · ${failovers}`,
      };
    case 'no-master':
      return {
        look: { icon: '✖', label: 'NO MASTER', tone: 'crit' },
        detail: `${sm.standbyCount} standby · ${failovers}`,
      };
    case 'split-brain':
      return {
        look: { icon: '✖', label: `SPLIT BRAIN (${sm.masterCount} MASTERS)`, tone: 'crit' },
        detail: failovers,
      };
    case 'rogue':
      return {
        look: { icon: '✖', label: `ROGUE SM (${sm.rogueCount})`, tone: 'crit' },
        detail: `master ${sm.masterName ?? sm.masterGuid ?? '?'} · an SM answers where none should · ${failovers}`,
      };
    case 'no-standby':
      return {
        look: { icon: '▲', label: 'NO STANDBY', tone: 'bad' },
        detail: `${sm.masterName ?? sm.masterGuid ?? 'master'} · no standby${sm.missingCount ? ` · ${sm.missingCount} not answering` : ''} · ${failovers}`,
      };
    case 'sm-missing':
      return {
        look: { icon: '▲', label: `SM NOT SEEN (${sm.missingCount})`, tone: 'bad' },
        detail: `${sm.masterName ?? sm.masterGuid ?? 'master'} · ${sm.standbyCount} standby · ${failovers}`,
      };
    default:
      return { look: { icon: '?', label: 'UNKNOWN', tone: 'muted' }, detail: 'no SM scan yet' };
  }
}

export const SCHEDULED_KINDS: readonly ScanKind[] = ['pm', 'sm', 'topology', 'ibdiagnet'];

/**
 * The latest scan of each kind (scheduled kinds always listed, imports only when present),
 * plus the latest *successful* one, so a failing kind still says when it last worked.
 */
export function latestScansByKind(
  scans: readonly ScanRow[],
): { kind: ScanKind; latest: ScanRow | null; lastOk: ScanRow | null }[] {
  const kinds: ScanKind[] = [...SCHEDULED_KINDS];
  for (const s of scans) if (!kinds.includes(s.kind)) kinds.push(s.kind);
  return kinds.map((kind) => {
    const mine = scans.filter((s) => s.kind === kind).sort((a, b) => b.startedAt - a.startedAt);
    return {
      kind,
      latest: mine[0] ?? null,
      lastOk: mine.find((s) => s.status === 'ok' || s.status === 'partial') ?? null,
    };
  });
}
