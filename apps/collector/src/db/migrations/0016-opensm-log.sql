-- Events read from OpenSM's own log (IBWATCH_OPENSM_LOG followed, or `ibwatch import opensm-log`):
-- state changes, handovers, SM port down, ERR lines, heavy sweeps, with the SM's own timestamps.
-- `at` is the stamp read as the collector's local time (the log has no zone); `time` is the stamp
-- as printed. `fingerprint` makes importing the same lines twice store them once.
CREATE TABLE opensm_log_events (
  id          INTEGER PRIMARY KEY,
  at          INTEGER,
  time        TEXT,
  kind        TEXT NOT NULL,
  state       TEXT,
  err_code    TEXT,
  guid        TEXT,
  host        TEXT,
  pid         INTEGER,
  duration_ms REAL,
  message     TEXT NOT NULL,
  source      TEXT NOT NULL,
  imported_at INTEGER NOT NULL,
  fingerprint TEXT NOT NULL UNIQUE
);
CREATE INDEX opensm_log_events_at ON opensm_log_events (at);
