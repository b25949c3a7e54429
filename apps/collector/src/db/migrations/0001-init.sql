-- ibwatch schema v1. Times are epoch milliseconds (UTC). snake_case here, camelCase in TS.

-- One row per scan or import, whatever triggered it. A scan's rows elsewhere are written in the
-- same transaction that flips its status from 'running', so a crash leaves 'running' rows only;
-- they are marked failed ("interrupted") at the next start.
CREATE TABLE scans (
  id            INTEGER PRIMARY KEY,
  kind          TEXT NOT NULL,
  trigger       TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed')),
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER,
  duration_ms   INTEGER,
  error         TEXT,
  warnings      TEXT NOT NULL DEFAULT '[]',
  tool_versions TEXT NOT NULL DEFAULT '{}',
  summary       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX scans_kind_started ON scans (kind, started_at);

-- Raw tool output, gzip-compressed, kept for a bounded time for audit and re-parse.
CREATE TABLE raw_outputs (
  id         INTEGER PRIMARY KEY,
  scan_id    INTEGER NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  bytes      INTEGER NOT NULL,
  gz         BLOB NOT NULL
);
CREATE INDEX raw_outputs_scan ON raw_outputs (scan_id);
CREATE INDEX raw_outputs_created ON raw_outputs (created_at);

CREATE TABLE nodes (
  guid        TEXT PRIMARY KEY,
  type        TEXT NOT NULL,
  description TEXT NOT NULL,
  num_ports   INTEGER NOT NULL,
  lid         INTEGER,
  tier        TEXT,
  rail        INTEGER,
  first_seen  INTEGER NOT NULL,
  last_seen   INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE ports (
  id              INTEGER PRIMARY KEY,
  node_guid       TEXT NOT NULL,
  port_num        INTEGER NOT NULL,
  port_guid       TEXT,
  lid             INTEGER,
  state           TEXT,
  phys_state      TEXT,
  width_active    TEXT,
  speed_active    TEXT,
  width_enabled   TEXT,
  width_supported TEXT,
  speed_enabled   TEXT,
  speed_supported TEXT,
  remote_guid     TEXT,
  remote_port     INTEGER,
  first_seen      INTEGER NOT NULL,
  last_seen       INTEGER NOT NULL,
  UNIQUE (node_guid, port_num)
);
CREATE INDEX ports_lid ON ports (lid);

-- A physical link; a_port_id < b_port_id. present = 0 once a scan no longer sees it.
CREATE TABLE links (
  id         INTEGER PRIMARY KEY,
  a_port_id  INTEGER NOT NULL REFERENCES ports (id),
  b_port_id  INTEGER NOT NULL REFERENCES ports (id),
  tier       TEXT,
  health     TEXT NOT NULL DEFAULT 'ok',
  reason     TEXT,
  present    INTEGER NOT NULL DEFAULT 1,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL,
  UNIQUE (a_port_id, b_port_id)
);

CREATE TABLE port_state_history (
  port_id    INTEGER NOT NULL REFERENCES ports (id),
  at         INTEGER NOT NULL,
  scan_id    INTEGER NOT NULL,
  state      TEXT,
  phys_state TEXT,
  width      TEXT,
  speed      TEXT
);
CREATE INDEX port_state_history_port ON port_state_history (port_id, at);

-- Last raw counter values per port (JSON object of decimal strings: bigint-safe), the baseline
-- the next sweep's deltas are computed against.
CREATE TABLE counter_last (
  port_id INTEGER PRIMARY KEY REFERENCES ports (id),
  at      INTEGER NOT NULL,
  scan_id INTEGER NOT NULL,
  vals    TEXT NOT NULL
);

CREATE TABLE counter_names (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

-- Sparse: only non-zero deltas of error counters are stored, one row per port/counter/sweep.
CREATE TABLE counter_deltas (
  port_id    INTEGER NOT NULL,
  counter_id INTEGER NOT NULL,
  at         INTEGER NOT NULL,
  interval_s REAL NOT NULL,
  delta      INTEGER NOT NULL,
  scan_id    INTEGER NOT NULL
);
CREATE INDEX counter_deltas_port_at ON counter_deltas (port_id, at);
CREATE INDEX counter_deltas_at ON counter_deltas (at);

-- Hourly rollups (sum of deltas) kept for a year; raw deltas only for days.
CREATE TABLE counter_rollups (
  port_id    INTEGER NOT NULL,
  counter_id INTEGER NOT NULL,
  hour       INTEGER NOT NULL,
  delta      INTEGER NOT NULL,
  PRIMARY KEY (port_id, counter_id, hour)
) WITHOUT ROWID;

CREATE TABLE sm_observations (
  scan_id        INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  guid           TEXT NOT NULL,
  lid            INTEGER,
  priority       INTEGER NOT NULL,
  state          TEXT NOT NULL,
  activity_count TEXT,
  name           TEXT
);
CREATE INDEX sm_observations_at ON sm_observations (at);

CREATE TABLE sm_events (
  id        INTEGER PRIMARY KEY,
  at        INTEGER NOT NULL,
  kind      TEXT NOT NULL,
  from_guid TEXT,
  to_guid   TEXT,
  detail    TEXT NOT NULL,
  scan_id   INTEGER
);

CREATE TABLE nccl_runs (
  id            INTEGER PRIMARY KEY,
  created_at    INTEGER NOT NULL,
  -- The run's time window (given with the upload, else the hour before the import): fabric
  -- findings open during it are linked to the run.
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER NOT NULL,
  scan_id       INTEGER,
  collective    TEXT NOT NULL,
  labels        TEXT NOT NULL DEFAULT '{}',
  hosts         TEXT NOT NULL DEFAULT '[]',
  ranks         INTEGER NOT NULL DEFAULT 0,
  nccl_version  TEXT,
  gdr           TEXT NOT NULL,
  gdr_evidence  TEXT NOT NULL DEFAULT '[]',
  avg_busbw     REAL,
  peak_busbw    REAL,
  target        REAL,
  verdict       TEXT NOT NULL,
  regression    INTEGER NOT NULL DEFAULT 0,
  truncated     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX nccl_runs_created ON nccl_runs (created_at);

CREATE TABLE nccl_results (
  run_id     INTEGER NOT NULL REFERENCES nccl_runs (id) ON DELETE CASCADE,
  size_bytes INTEGER NOT NULL,
  type       TEXT NOT NULL,
  redop      TEXT,
  oop_time   REAL, oop_algbw REAL, oop_busbw REAL, oop_wrong INTEGER,
  ip_time    REAL, ip_algbw  REAL, ip_busbw  REAL, ip_wrong  INTEGER
);
CREATE INDEX nccl_results_run ON nccl_results (run_id);

CREATE TABLE findings (
  id              INTEGER PRIMARY KEY,
  kind            TEXT NOT NULL,
  severity        TEXT NOT NULL,
  state           TEXT NOT NULL DEFAULT 'open',
  subject_type    TEXT NOT NULL,
  subject_key     TEXT NOT NULL,
  -- The subject as JSON (port / link ends / sm guid / run id), and the short worklist reason.
  subject         TEXT NOT NULL DEFAULT '{}',
  title           TEXT NOT NULL,
  short           TEXT,
  evidence        TEXT NOT NULL DEFAULT '{}',
  first_seen      INTEGER NOT NULL,
  last_seen       INTEGER NOT NULL,
  resolved_at     INTEGER,
  acknowledged_by TEXT,
  acknowledged_at INTEGER,
  clean_sweeps    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX findings_open ON findings (state, kind, subject_key);
CREATE INDEX findings_last_seen ON findings (last_seen);

-- Cable (transceiver) info by port, from ibdiagnet's CABLE_INFO / .cables.
CREATE TABLE cables (
  node_guid  TEXT NOT NULL,
  port_num   INTEGER NOT NULL,
  info       TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (node_guid, port_num)
) WITHOUT ROWID;

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
