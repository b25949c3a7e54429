/**
 * Alerts pushed out: where to, and the deliveries that failed (docs/alerting.md).
 * Part of the HTTP API contract (see ../api.ts).
 */

/** A configured target: Alertmanager (IBWATCH_ALERTMANAGER_URL) or the webhook (IBWATCH_WEBHOOK_URL). */
export interface NotificationTarget {
  name: 'alertmanager' | 'webhook';
  /** Scheme, host and port only: a webhook's path often holds its secret. */
  origin: string;
  /** Findings this target was told are active and not yet told resolved. */
  active: number;
  /** Latest delivery about a finding it still knows as active; null when it knows none. */
  lastSentAt: number | null;
}

/**
 * A delivery that failed after all its tries (IBWATCH_NOTIFY_ATTEMPTS). `event` is `open`,
 * `resolve` (webhook) or `push` (Alertmanager: every active alert at once, `findingId` null).
 * Later failures of the same delivery add their tries to `attempts`; `deliveredAt` is set once it
 * went through.
 */
export interface NotificationFailure {
  id: number;
  target: string;
  event: string;
  findingId: number | null;
  attempts: number;
  error: string;
  firstAt: number;
  lastAt: number;
  deliveredAt: number | null;
}

/** `GET /api/notifications`. */
export interface NotificationsReply {
  targets: NotificationTarget[];
  /** Newest first, at most 100. */
  failures: NotificationFailure[];
}
