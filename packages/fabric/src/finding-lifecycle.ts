/**
 * What a finding's kind means for its lifecycle, and the one place that says which state a
 * finding shows. Pure.
 *
 * A finding kind is a *condition* or an *event*. A condition (a link at half width, a symbol
 * error rate over threshold, no standby SM) is re-observed by every scan while it holds, so the
 * first scan that no longer sees it has observed a repair: it leaves "Broken now" for "Recently
 * fixed". An event (a link went down, a link flapped N times in 24 h, the master SM moved) is seen
 * once, by the scan it happened in; the next scan not seeing it again observes nothing. So an
 * event stays broken for its window after it last happened, unless someone acknowledges it
 * after it last happened or marks it fixed; it then goes to "Recent events", never to "Recently
 * fixed" (nobody observed a repair).
 */
import type { FindingState, Severity } from './api.ts';
import { SEVERITY_RANK } from './findings.ts';
import { type DeepPartial, type HealthThresholds, resolveThresholds } from './thresholds.ts';

export type FindingNature = 'condition' | 'event';

/** How long an SM failover stays broken after it happened, unless acknowledged: a day. */
export const SM_FAILOVER_WINDOW_MS = 86_400_000;

/**
 * Kinds a scan reports only when the thing happened in its interval: `link-downed` (a
 * LinkDownedCounter increase), `link-flapping` (judged by the sweep that saw a new flap) and
 * `sm-failover` (the master changed since the previous scan).
 */
const EVENT_KINDS: ReadonlySet<string> = new Set(['link-downed', 'link-flapping', 'sm-failover']);

export function findingNature(kind: string): FindingNature {
  return EVENT_KINDS.has(kind) ? 'event' : 'condition';
}

/**
 * How long an event stays broken after it last happened (ms; 0 for conditions). A flap count
 * holds for the flap window (`flaps.windowHours`, 24 h by default): a link that flapped 3 times
 * today is still a link that flapped 3 times today an hour later. A single `link-downed` is
 * shown by the sweep that saw it; the flap count of the same downs carries its window.
 */
export function eventWindowMs(kind: string, thresholds?: DeepPartial<HealthThresholds>): number {
  if (kind === 'link-flapping') return resolveThresholds(thresholds).flaps.windowHours * 3_600_000;
  if (kind === 'sm-failover') return SM_FAILOVER_WINDOW_MS;
  return 0;
}

/**
 * Whether an event finding not observed by this scan still holds: its window since it last
 * happened has not passed. Always false for conditions (their absence is an observation).
 */
export function eventHolds(kind: string, lastSeen: number, at: number, windowMs = eventWindowMs(kind)): boolean {
  return findingNature(kind) === 'event' && at - lastSeen < windowMs;
}

/** What a person's "marked fixed" does: an event leaves "Broken now" at once (no scan will clear it). */
export function resolveClears(kind: string): boolean {
  return findingNature(kind) === 'event' || kind.startsWith('nccl-');
}

/** A finding as {@link isBrokenNow} needs it (epoch ms). */
export interface LifecycleFacts {
  kind: string;
  severity: Severity;
  state: FindingState;
  lastSeen: number;
  clearedAt: number | null;
  acknowledgedAt: number | null;
}

/**
 * Broken now: current (not cleared) and minor or worse, except an event someone acknowledged
 * after it last happened (acknowledging a condition says someone is on it; it stays broken).
 */
export function isBrokenNow(f: LifecycleFacts): boolean {
  if (f.clearedAt !== null || f.severity === 'info') return false;
  return !(findingNature(f.kind) === 'event' && f.acknowledgedAt !== null && f.acknowledgedAt >= f.lastSeen);
}

/** The state a finding or worklist entry shows: `cleared` while open or acknowledged but no longer observed. */
export type ShownState = FindingState | 'cleared';

/** The one rule for the state column of every view, export and print: page, CSV and JSON agree. */
export function shownState(state: FindingState, clearedAt: number | string | null | undefined): ShownState {
  return clearedAt !== null && clearedAt !== undefined && state !== 'resolved' ? 'cleared' : state;
}

/** The worse of two severities (a finding's peak keeps the worst it ever was). */
export function worseSeverity(a: Severity, b: Severity): Severity {
  return SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

/**
 * How an event left "Broken now", in the words the overview and `ibwatch status` both print.
 * Keyed by `RecentEventRow['how']`; never "fixed" for an event that only aged out.
 */
export const EVENT_END_WORDS = {
  'window-ended': 'did not happen again in its window',
  acknowledged: 'acknowledged',
  'marked-fixed': 'marked fixed',
} as const;
