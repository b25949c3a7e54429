-- Firmware of each node as the newest ibdiagnet run that read it reported it (db_csv NODES_INFO,
-- or GENERAL_INFO_SMP for nodes that answer only that). A run that reports no PSID for a node
-- keeps the one an earlier run gave (`--skip nodes_info` runs read versions only); a run older
-- than a row's observed_at (an archive imported late) does not overwrite it.
CREATE TABLE node_firmware (
  guid        TEXT PRIMARY KEY,
  version     TEXT NOT NULL,
  psid        TEXT,
  device_id   INTEGER,
  hw_revision INTEGER,
  -- Time of the ibdiagnet run (its Running timestamp), not of the import.
  observed_at INTEGER NOT NULL,
  scan_id     INTEGER NOT NULL
) WITHOUT ROWID;
