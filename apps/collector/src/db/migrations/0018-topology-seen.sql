-- An unchanged topology re-scan rewrote `last_seen` of every node, port and link it saw (49k
-- nodes, 293k ports, 136k links at 45,000 GPUs: most of an hourly ibdiagnet import). "Seen by
-- the latest topology scan" is now kept once: `seen_latest = 1` on a row means the latest scan
-- saw it, at `topology_seen.at`, and its own `last_seen` is then out of date; a row the latest
-- scan did not see has `seen_latest = 0` and its `last_seen` is exact. A scan writes only the
-- rows whose flag changes (new, returning, or no longer seen: those get the previous scan's
-- time as their `last_seen`) and the one `topology_seen` row. Readers take a row's last-seen
-- time through db/topology-seen.ts. Rows stored before this version keep their exact
-- `last_seen` (flag 0) until a scan sees them again.
ALTER TABLE nodes ADD COLUMN seen_latest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ports ADD COLUMN seen_latest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN seen_latest INTEGER NOT NULL DEFAULT 0;
-- `input` is a hash of the latest scan's nodes, ports and links and `shape` the row counts it
-- left: a scan with the same input into the same rows skips the comparison (topology-seen.ts).
-- A migration that rewrites these tables' rows must set `input` to NULL.
CREATE TABLE topology_seen (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  at    INTEGER NOT NULL,
  input TEXT,
  shape TEXT NOT NULL
);
