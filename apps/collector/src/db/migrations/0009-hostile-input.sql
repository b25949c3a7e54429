-- Hostile input (issue 14).

-- Node descriptions are cut to 128 characters when a scan brings them in (packages/fabric
-- text-limits.ts; IB NodeDescription is 64 bytes on the wire). A row stored before may hold a
-- 50 MB one, which made /api/topology fail with "Invalid string length": the same cut here.
UPDATE nodes SET description = substr(description, 1, 128) WHERE length(description) > 128;
UPDATE sm_observations SET name = substr(name, 1, 128) WHERE length(name) > 128;

-- What the nccl drop directory has taken in, by the SHA-256 of the content: a file is imported
-- once whatever becomes of it afterwards (a read-only directory cannot move it to imported/,
-- and it was imported again every 5 s). scan_id and run_id are not foreign keys: retention
-- prunes scans, and the record of the content must outlive them.
CREATE TABLE drop_dir_files (
  sha256  TEXT PRIMARY KEY,
  name    TEXT NOT NULL,
  bytes   INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('imported', 'failed')),
  scan_id INTEGER,
  run_id  INTEGER,
  at      INTEGER NOT NULL
) WITHOUT ROWID;

-- The process a scan belongs to (`host:pid:start`, scan-owner.ts): at start-up a process marks
-- failed only the 'running' scans of processes that are gone, not those of the server or of
-- another import writing the same file at that moment.
ALTER TABLE scans ADD COLUMN owner TEXT;
