-- Per-sweep counter deltas were most of a 30-day database (issue 19: 45,000 GPUs, ~31M rows for
-- the 7 days they are kept): a rowid table and three indexes, (port_id, at), (at) and
-- (counter_id, at), each index entry carrying the rowid. The table is now clustered by time
-- (WITHOUT ROWID, primary key (at, port_id, counter_id)): rows are appended in time order, the
-- queries by time (pruning, the last sweep's deltas, a scan's increments, ports with deltas
-- since) read the table itself, so the (at) index and the rowid go. The two remaining indexes
-- carry the key's missing columns instead of a rowid. One port, counter and time is one row: a
-- second delta for it (the same port listed twice in one sweep) is added to the first, as the
-- hourly rollup always did.
CREATE TABLE counter_deltas_0017 (
  at         INTEGER NOT NULL,
  port_id    INTEGER NOT NULL,
  counter_id INTEGER NOT NULL,
  interval_s REAL NOT NULL,
  delta      INTEGER NOT NULL,
  scan_id    INTEGER NOT NULL,
  PRIMARY KEY (at, port_id, counter_id)
) WITHOUT ROWID;
INSERT INTO counter_deltas_0017 (at, port_id, counter_id, interval_s, delta, scan_id)
  SELECT at, port_id, counter_id, interval_s, delta, scan_id FROM counter_deltas WHERE true ORDER BY at, port_id,
  counter_id, rowid
  ON CONFLICT (at, port_id, counter_id) DO UPDATE SET delta = delta + excluded.delta;
DROP TABLE counter_deltas;
ALTER TABLE counter_deltas_0017 RENAME TO counter_deltas;
CREATE INDEX counter_deltas_port_at ON counter_deltas (port_id, at);
CREATE INDEX counter_deltas_counter_at ON counter_deltas (counter_id, at);
