-- A delta's interval in whole milliseconds (issue 19: 30 days at 45,000 GPUs were at the 5 GB
-- line). A sweep's interval is the time between two millisecond clock readings, so as seconds it
-- is nearly always fractional and took an 8-byte REAL in each of the ~31M rows kept for 7 days;
-- as milliseconds (~60,000) it is a 3-byte integer. Readers divide by 1000.0, which gives back
-- the same double as before (m / 1000 is correctly rounded either way). An interval that is not
-- a whole number of milliseconds (none is written; a tool could print one) stays a REAL of
-- milliseconds. The table is rebuilt in its key order, as by 0017.
CREATE TABLE counter_deltas_0020 (
  at          INTEGER NOT NULL,
  port_id     INTEGER NOT NULL,
  counter_id  INTEGER NOT NULL,
  interval_ms INTEGER NOT NULL,
  delta       INTEGER NOT NULL,
  scan_id     INTEGER NOT NULL,
  PRIMARY KEY (at, port_id, counter_id)
) WITHOUT ROWID;
INSERT INTO counter_deltas_0020 (at, port_id, counter_id, interval_ms, delta, scan_id)
  SELECT at, port_id, counter_id,
    CASE WHEN round(interval_s * 1000) / 1000.0 = interval_s THEN CAST(round(interval_s * 1000) AS INTEGER)
      ELSE interval_s * 1000 END,
    delta, scan_id FROM counter_deltas ORDER BY at, port_id, counter_id;
DROP TABLE counter_deltas;
ALTER TABLE counter_deltas_0020 RENAME TO counter_deltas;
CREATE INDEX counter_deltas_port_at ON counter_deltas (port_id, at);
CREATE INDEX counter_deltas_counter_at ON counter_deltas (counter_id, at);
