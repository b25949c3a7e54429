/**
 * Words, icons and tones for every state the UI shows. Colour is never the only carrier:
 * each state has an icon and a label, and the tone only picks a CSS class.
 */
import {
  NCCL_FLAG_WORDS,
  NCCL_VERDICT_WORDS,
  shownState,
  type FindingState,
  type LinkHealth,
  type NcclFlag,
  type NcclVerdict,
  type ScanStatus,
  type Severity,
} from '@ibwatch/fabric';

export type Tone = 'ok' | 'warn' | 'bad' | 'crit' | 'info' | 'muted';

export interface StatusLook {
  icon: string;
  label: string;
  tone: Tone;
}

export const SEVERITIES: readonly Severity[] = ['critical', 'major', 'minor', 'info'];
const SEVERITY_RANK: Record<Severity, number> = { critical: 0, major: 1, minor: 2, info: 3 };

export const severityLook: Record<Severity, StatusLook> = {
  critical: { icon: '✖', label: 'CRITICAL', tone: 'crit' },
  major: { icon: '▲', label: 'MAJOR', tone: 'bad' },
  minor: { icon: '◆', label: 'MINOR', tone: 'warn' },
  info: { icon: 'ℹ', label: 'INFO', tone: 'info' },
};

export const healthLook: Record<LinkHealth, StatusLook> = {
  ok: { icon: '●', label: 'OK', tone: 'ok' },
  degraded: { icon: '▲', label: 'DEGRADED', tone: 'warn' },
  errors: { icon: '◆', label: 'ERRORS', tone: 'bad' },
  down: { icon: '✖', label: 'DOWN', tone: 'crit' },
};

export const HEALTH_RANK: Record<LinkHealth, number> = { ok: 0, degraded: 1, errors: 2, down: 3 };

export const scanLook: Record<ScanStatus, StatusLook> = {
  running: { icon: '◌', label: 'RUNNING', tone: 'info' },
  ok: { icon: '●', label: 'OK', tone: 'ok' },
  partial: { icon: '▲', label: 'PARTIAL', tone: 'warn' },
  failed: { icon: '✖', label: 'FAILED', tone: 'crit' },
};

// Words from packages/fabric, the same in the CSV and `ibwatch nccl`.
export const verdictLook: Record<NcclVerdict, StatusLook> = {
  pass: { icon: '●', label: NCCL_VERDICT_WORDS.pass, tone: 'ok' },
  fail: { icon: '✖', label: NCCL_VERDICT_WORDS.fail, tone: 'crit' },
  // Only ever from the log's own GDR-disabled lines.
  'host-memory-fallback': { icon: '⚠', label: NCCL_VERDICT_WORDS['host-memory-fallback'], tone: 'crit' },
  unknown: { icon: '?', label: NCCL_VERDICT_WORDS.unknown, tone: 'muted' },
};

/** A run's flags; the band without GDR lines is a question (warn), never the critical fallback. */
export const flagLook: Record<NcclFlag, StatusLook> = {
  regression: { icon: '▼', label: NCCL_FLAG_WORDS.regression.toUpperCase(), tone: 'bad' },
  'gdr-off': { icon: '✖', label: NCCL_FLAG_WORDS['gdr-off'].toUpperCase(), tone: 'crit' },
  'gdr-unknown': { icon: '◆', label: NCCL_FLAG_WORDS['gdr-unknown'].toUpperCase(), tone: 'warn' },
};

export const findingStateLook: Record<FindingState, StatusLook> = {
  open: { icon: '○', label: 'OPEN', tone: 'bad' },
  acknowledged: { icon: '◐', label: 'ACKNOWLEDGED', tone: 'warn' },
  resolved: { icon: '●', label: 'RESOLVED', tone: 'ok' },
};

/** An open or acknowledged finding the latest scan no longer observed: not broken, resolving. */
export const clearedLook: StatusLook = { icon: '✓', label: 'CLEARED', tone: 'ok' };

/**
 * The state badge of a finding or worklist entry: CLEARED while its lifecycle is still open but
 * the latest scan no longer sees it, else its lifecycle state.
 */
export function lifecycleLook(state: FindingState, clearedAt: number | null): StatusLook {
  const shown = shownState(state, clearedAt);
  return shown === 'cleared' ? clearedLook : findingStateLook[shown];
}

/** Most severe first; ties keep the most recently seen first, then the given order. */
export function sortBySeverity<T extends { severity: Severity; lastSeen?: number }>(rows: readonly T[]): T[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort(
      (x, y) =>
        SEVERITY_RANK[x.r.severity] - SEVERITY_RANK[y.r.severity] ||
        (y.r.lastSeen ?? 0) - (x.r.lastSeen ?? 0) ||
        x.i - y.i,
    )
    .map((x) => x.r);
}

/** The worse of two healths (down > errors > degraded > ok). */
export function worstHealth(a: LinkHealth, b: LinkHealth): LinkHealth {
  return HEALTH_RANK[b] > HEALTH_RANK[a] ? b : a;
}

export function isSeverity(s: string | undefined): s is Severity {
  return s !== undefined && (SEVERITIES as readonly string[]).includes(s);
}
