-- The Slurm jobs running on the fabric's hosts, as the last `squeue --json` saw them (refreshed
-- with each topology scan, replaced whole): the blast radius names them on the worklist.
CREATE TABLE slurm_jobs (
  job_id     TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  user_name  TEXT NOT NULL,
  state      TEXT NOT NULL,
  partition  TEXT NOT NULL,
  node_count INTEGER NOT NULL,
  -- JSON array of host names, expanded from Slurm's hostlist.
  hosts      TEXT NOT NULL,
  started_at INTEGER,
  scan_id    INTEGER NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
  seen_at    INTEGER NOT NULL
);
