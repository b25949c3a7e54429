/**
 * `GET /api/notifications`: alerts pushed out — where to, and the deliveries that failed
 * (docs/alerting.md). Part of the HTTP API contract (see ../api.ts).
 */
import { Int, Ms, NullInt, NullMs, type Static, Str, Text, Type } from './kit.ts';

/** A configured target: Alertmanager (IBWATCH_ALERTMANAGER_URL) or the webhook (IBWATCH_WEBHOOK_URL). */
export const NotificationTargetSchema = Type.Object({
  name: Str(['alertmanager', 'webhook'] as const),
  /** Scheme, host and port only: a webhook's path often holds its secret. */
  origin: Text(),
  /** Findings this target was told are active and not yet told resolved. */
  active: Int(),
  /** Latest delivery about a finding it still knows as active; null when it knows none. */
  lastSentAt: NullMs(),
});
export type NotificationTarget = Static<typeof NotificationTargetSchema>;

/**
 * A delivery that failed after all its tries (IBWATCH_NOTIFY_ATTEMPTS). `event` is `open`,
 * `resolve` (webhook) or `push` (Alertmanager: every active alert at once, `findingId` null).
 * Later failures of the same delivery add their tries to `attempts`; `deliveredAt` is set once it
 * went through.
 */
export const NotificationFailureSchema = Type.Object({
  id: Int(),
  target: Text(),
  event: Text(),
  findingId: NullInt(),
  attempts: Int(),
  error: Text(),
  firstAt: Ms(),
  lastAt: Ms(),
  deliveredAt: NullMs(),
});
export type NotificationFailure = Static<typeof NotificationFailureSchema>;

export const NotificationsReplySchema = Type.Object({
  targets: Type.Array(NotificationTargetSchema),
  /** Newest first, at most 100. */
  failures: Type.Array(NotificationFailureSchema),
});
export type NotificationsReply = Static<typeof NotificationsReplySchema>;
