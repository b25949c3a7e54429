/**
 * Findings, their history, the whoami reply and the reseat worklist.
 * Part of the HTTP API contract (see ../api.ts).
 */
import type { FindingState, Severity } from './common.ts';
import type { LinkEnd } from './topology.ts';

export interface FindingRow {
  id: number;
  kind: string;
  severity: Severity;
  state: FindingState;
  subjectType: 'port' | 'link' | 'sm' | 'run' | 'fabric';
  subjectKey: string;
  title: string;
  evidence: Record<string, unknown>;
  firstSeen: number;
  lastSeen: number;
  /**
   * When the first scan evaluating this kind no longer saw the condition; null while the latest
   * one still sees it. A cleared finding is not broken now; it resolves after the clean period.
   */
  clearedAt: number | null;
  resolvedAt: number | null;
  acknowledgedBy: string | null;
}

/**
 * One step of a finding's history. `event` is `opened`, `cleared` (no longer observed),
 * `observed-again`, `acknowledged` or `resolved` (through the API), or `auto-resolved` (stayed
 * cleared for IBWATCH_AUTO_RESOLVE_MIN); the collector may add other lifecycle steps, so render
 * an unknown one as it is. `by` is the name of the token that
 * made an API change (IBWATCH_TOKENS), null for the collector's own; `note` is the reason given.
 */
export interface FindingEvent {
  at: number;
  event: string;
  by: string | null;
  note: string | null;
}

/** `GET /api/findings/:id`, and the reply of acknowledge and resolve: the finding with its history, oldest first. */
export interface FindingDetail extends FindingRow {
  history: FindingEvent[];
}

/** `GET /api/whoami`: the name of the bearer token sent, null without a valid one. */
export interface WhoamiReply {
  name: string | null;
}

export interface WorklistEntry {
  rank: number;
  findingIds: number[];
  linkKey: string;
  severity: Severity;
  state: FindingState;
  a: LinkEnd;
  b: LinkEnd | null;
  reasons: string[];
  action: string;
  cable: string | null;
  firstSeen: number;
  lastSeen: number;
  /** Set when no finding of the entry is observed any more (cleared at, latest of them); null while one is. */
  clearedAt: number | null;
  /**
   * Fixes of this cable in the last 14 days after which it erred again (oldest first): each
   * climbs the action ladder one step. Empty when none.
   */
  reopenedAfterFix: { fixedAt: number; reopenedAt: number }[];
}
