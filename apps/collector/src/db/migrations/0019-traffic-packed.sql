-- Closed hours of traffic, packed (issue 19: 30 days of 272k ports' hours were ~3.1 GB of
-- traffic_hourly, one 3.8 KB chunk per 4 KB page). Once an hour is over, its chunks move here
-- compressed, GROUP_CHUNKS (16) consecutive chunks to a row (format: traffic-pack.ts); the
-- current hour stays in traffic_hourly, rewritten every sweep. `id` = hour (epoch ms /
-- 3,600,000) * 2^16 + chunk / 16: one rowid, no index. Hours stored before this migration stay
-- readable where they are and are packed by the collector a few hours per sweep.
CREATE TABLE traffic_packed (
  id   INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);
