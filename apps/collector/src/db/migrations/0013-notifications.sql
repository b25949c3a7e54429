-- Alerts pushed out (docs/alerting.md): to Alertmanager (IBWATCH_ALERTMANAGER_URL) and to a JSON
-- webhook (IBWATCH_WEBHOOK_URL). notify_state is what each target was last told about each
-- finding it knows as active: a restarted collector goes on from there instead of announcing
-- every finding again. `notice` is the JSON that was sent, so a resolve repeats the same labels
-- even when the finding has changed or retention has deleted it. A row goes once its resolve
-- has been delivered.
CREATE TABLE notify_state (
  target     TEXT NOT NULL,
  finding_id INTEGER NOT NULL,
  notice     TEXT NOT NULL,
  opened_at  INTEGER NOT NULL,
  sent_at    INTEGER NOT NULL,
  PRIMARY KEY (target, finding_id)
) WITHOUT ROWID;

-- Deliveries that failed after all their attempts, shown on the scans page and at
-- /api/notifications. One row per target, event and finding (finding_id NULL for an Alertmanager
-- push of every active alert) until it is delivered: later failures add their attempts to it.
CREATE TABLE notify_failures (
  id           INTEGER PRIMARY KEY,
  target       TEXT NOT NULL,
  event        TEXT NOT NULL,
  finding_id   INTEGER,
  attempts     INTEGER NOT NULL,
  error        TEXT NOT NULL,
  first_at     INTEGER NOT NULL,
  last_at      INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX notify_failures_last ON notify_failures (last_at);
