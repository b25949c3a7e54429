-- A finding's history: who did what to it, when and why. Acknowledge and resolve through the API
-- record the name of the bearer token used (IBWATCH_TOKENS) as `actor`, and the note given;
-- the collector's own transitions (opened, auto-resolved, ...) have no actor. `event` is an open
-- vocabulary, so new lifecycle steps need no migration. Deleting a finding (retention) deletes
-- its history.
CREATE TABLE finding_events (
  id         INTEGER PRIMARY KEY,
  finding_id INTEGER NOT NULL REFERENCES findings (id) ON DELETE CASCADE,
  at         INTEGER NOT NULL,
  event      TEXT NOT NULL,
  actor      TEXT,
  note       TEXT
);
CREATE INDEX finding_events_finding ON finding_events (finding_id, at);

-- Findings stored before this version get the history their own columns still tell. Who
-- resolved one was not recorded (a person or the collector); an acknowledgement's name
-- was whatever the client sent.
INSERT INTO finding_events (finding_id, at, event)
  SELECT id, first_seen, 'opened' FROM findings;
INSERT INTO finding_events (finding_id, at, event)
  SELECT id, cleared_at, 'cleared' FROM findings WHERE cleared_at IS NOT NULL AND state != 'resolved';
INSERT INTO finding_events (finding_id, at, event, actor, note)
  SELECT id, acknowledged_at, 'acknowledged', acknowledged_by, 'recorded before finding history was kept'
  FROM findings WHERE acknowledged_at IS NOT NULL;
INSERT INTO finding_events (finding_id, at, event, note)
  SELECT id, resolved_at, 'resolved', 'recorded before finding history was kept: by a person or by the collector'
  FROM findings WHERE resolved_at IS NOT NULL;
