-- Traffic and congestion per port (docs/traffic.md). Hourly: one row per hour and chunk of 240
-- port ids, `data` a packed array of 16-byte slots (slot = port id % 240): transmit and receive
-- utilisation average and maximum (uint16, 1/10,000 of the link's data rate) and PortXmitWait
-- average and maximum (uint32, ticks/s), little-endian; a port with no traffic is all zeros, a
-- chunk without any traffic has no row. At 272k ports one row per port and hour cost ~35 bytes;
-- a slot costs 16. `id` = hour (epoch ms / 3,600,000) * 2^20 + chunk: one rowid, no index.
-- `n` = sweeps averaged so far (the current hour is rewritten every sweep, and continued after
-- a restart).
CREATE TABLE traffic_hourly (
  id   INTEGER PRIMARY KEY,
  n    INTEGER NOT NULL,
  data BLOB NOT NULL
);

-- Sweep resolution for the busiest ports only (IBWATCH_TRAFFIC_RECENT_PORTS), for the last
-- IBWATCH_TRAFFIC_RECENT_HOURS; ports without traffic are never stored. Bytes/s and ticks/s.
CREATE TABLE traffic_recent (
  port_id  INTEGER NOT NULL,
  at       INTEGER NOT NULL,
  tx_bps   INTEGER NOT NULL,
  rx_bps   INTEGER NOT NULL,
  wait_tps INTEGER NOT NULL,
  PRIMARY KEY (port_id, at)
) WITHOUT ROWID;
CREATE INDEX traffic_recent_at ON traffic_recent (at);
