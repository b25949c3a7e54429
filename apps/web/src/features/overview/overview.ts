import type {
  BrokenRow,
  FabricStatusWord,
  FabricSummary,
  ScanFreshness,
  ScanKind,
  ScanRow,
  SmSummary,
} from '@ibwatch/fabric';
import type { StatusLook } from '../../lib/status.ts';
import { formatShort } from '../../lib/time.ts';
import { href, portHref } from '../../router.ts';

/**
 * Plain-words SM verdict for the wall screen. The tone follows the SM pair's state now: one
 * master and its standby (after a failback too) is green; a failover of the last 24 h is an
 * event told in the detail line, not a colour.
 */
export function smVerdict(sm: SmSummary): { look: StatusLook; detail: string } {
  const failovers =
    sm.failoversLast24h > 0
      ? `${sm.failoversLast24h} failover${sm.failoversLast24h === 1 ? '' : 's'} in the last 24 h`
      : 'no failover in the last 24 h';
  switch (sm.status) {
    case 'ok':
      return {
        look: { icon: '●', label: 'ONE MASTER', tone: 'ok' },
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
        detail:
          `${sm.masterName ?? sm.masterGuid ?? 'master'} · no standby` +
          `${sm.missingCount ? ` · ${sm.missingCount} not answering` : ''} · ${failovers}`,
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

/** Words, icons and tones of the fabric status word (STALE also gets a striped "no signal" look). */
export const STATUS_LOOK: Record<FabricStatusWord, StatusLook> = {
  OK: { icon: '●', label: 'OK', tone: 'ok' },
  DEGRADED: { icon: '▲', label: 'DEGRADED', tone: 'warn' },
  STALE: { icon: '◷', label: 'STALE', tone: 'muted' },
  CRITICAL: { icon: '✖', label: 'CRITICAL', tone: 'crit' },
};

/** What the screen shows as the fabric status, and whether that is the collector's own word. */
export interface ScreenStatus {
  word: FabricStatusWord;
  reasons: string[];
  /** Set when the collector has not answered since this time: everything shown is older. */
  unreachableSince: number | null;
}

/**
 * When a polled page has lost its collector: the time of the last good answer from the first
 * failed poll on (a poll that gets no answer fails too: useApi gives it a deadline), else null.
 * Everything on screen is at least that old.
 */
export function lostSince(poll: { error: unknown; updatedAt: number | undefined }, generatedAt: number): number | null {
  return poll.error ? (poll.updatedAt ?? generatedAt) : null;
}

/**
 * The collector's status word, unless the screen itself has lost it: from the first failed
 * poll the summary on screen is old whatever it says, so the screen says STALE (and what the
 * collector said last).
 */
export function screenStatus(s: FabricSummary, poll: { error: unknown; updatedAt: number | undefined }): ScreenStatus {
  const since = lostSince(poll, s.generatedAt);
  if (since !== null) {
    return {
      word: 'STALE',
      reasons: [`no answer from the collector since ${formatShort(since)}; it said ${s.fabricStatus.word} then`],
      unreachableSince: since,
    };
  }
  return { word: s.fabricStatus.word, reasons: s.fabricStatus.reasons, unreachableSince: null };
}

export type ShownFreshness = ScanFreshness['state'] | 'unknown';

const FRESHNESS_LOOK: Record<ShownFreshness, StatusLook> = {
  fresh: { icon: '●', label: 'FRESH', tone: 'ok' },
  pending: { icon: '◌', label: 'PENDING', tone: 'info' },
  stale: { icon: '◷', label: 'STALE', tone: 'crit' },
  unknown: { icon: '?', label: 'UNKNOWN', tone: 'muted' },
};

/**
 * A scan kind's freshness badge as the screen may show it. Once the screen lost its collector,
 * nothing is vouched for now: what was fresh then is UNKNOWN. Under a STALE fabric word a kind
 * that is still fresh keeps its word but not the green: nothing under STALE looks all-clear.
 */
export function freshnessBadge(
  f: ScanFreshness,
  screen: Pick<ScreenStatus, 'word' | 'unreachableSince'>,
): { state: ShownFreshness; look: StatusLook } {
  if (screen.unreachableSince !== null && f.state === 'fresh')
    return { state: 'unknown', look: FRESHNESS_LOOK.unknown };
  const look = FRESHNESS_LOOK[f.state];
  return { state: f.state, look: screen.word === 'STALE' && look.tone === 'ok' ? { ...look, tone: 'muted' } : look };
}

/** Where a broken-now row leads: its worklist entry, the port page, the SM page or the scans page. */
export function brokenRowHref(r: BrokenRow): string {
  if (r.kind === 'sm') return '/sm';
  if (r.kind === 'scan') return href('/scans');
  if (r.worklistKey) return href('/worklist', { focus: r.worklistKey });
  const end = r.ends[0];
  return end ? portHref(end.guid, end.port) : '/worklist';
}

/** A count tile's tone: neutral at zero (nothing to look at), the alarm tone otherwise. */
export function countTone(n: number, alarm: StatusLook['tone']): StatusLook['tone'] | undefined {
  return n > 0 ? alarm : undefined;
}
