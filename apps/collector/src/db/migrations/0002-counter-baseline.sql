-- The sweep the stored counter baseline is as of. From this version on a port's counter_last
-- row is rewritten only when one of its kept counters (errors, PortXmitWait) changed, and only
-- those counters are stored: a 60k-port sweep changes a few hundred rows instead of rewriting
-- all 60k (~40 MB of JSON a minute). A row's own `at` now says when that port last changed;
-- the interval of the next sweep's deltas is measured from this row's `at`.
CREATE TABLE counter_baseline (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  at      INTEGER NOT NULL,
  scan_id INTEGER
);
INSERT INTO counter_baseline (id, at, scan_id) SELECT 1, MAX(at), MAX(scan_id) FROM counter_last HAVING COUNT(*) > 0;

-- Version counters bumped by the writers of a table group (topology-repo for nodes and ports),
-- so that caches of derived data compare one row instead of scanning 69k ports for a change.
CREATE TABLE change_counters (
  name TEXT PRIMARY KEY,
  n    INTEGER NOT NULL
);

-- Links by their second end, for recolouring only the links at the ends a PM sweep touched
-- (the UNIQUE (a_port_id, b_port_id) index already serves the first end).
CREATE INDEX links_b_port ON links (b_port_id);

-- Flap detection reads one counter (LinkDownedCounter) over the last 24 h on every PM sweep. At
-- 10k GPUs that window holds ~1M delta rows of all counters; by (counter_id, at) it reads only
-- the few LinkDownedCounter rows instead of scanning the window.
CREATE INDEX counter_deltas_counter_at ON counter_deltas (counter_id, at);
