-- Every subnet manager ever seen, with its state, priority and LID as last seen. sm_observations
-- only has the SMs that answered a sweep, so a dead standby used to vanish from the SM table the
-- sweep after it died; here it stays, "not seen since last_seen". `answering` is 1 for the SMs of
-- the latest SM observation.
CREATE TABLE sm_known (
  guid           TEXT PRIMARY KEY, -- port GUID, as SMInfo reports it
  first_seen     INTEGER NOT NULL,
  last_seen      INTEGER NOT NULL,
  lid            INTEGER,
  priority       INTEGER NOT NULL,
  state          TEXT NOT NULL,
  activity_count TEXT,
  name           TEXT,
  answering      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO sm_known (guid, first_seen, last_seen, lid, priority, state, activity_count, name, answering)
SELECT o.guid, f.first_seen, o.at, o.lid, o.priority, o.state, o.activity_count, o.name,
       o.scan_id = (SELECT MAX(scan_id) FROM sm_observations)
FROM sm_observations o
JOIN (SELECT guid, MIN(at) AS first_seen, MAX(scan_id) AS last_scan FROM sm_observations GROUP BY guid) f
  ON f.guid = o.guid AND o.scan_id = f.last_scan
GROUP BY o.guid;

-- One timeline row per failover: the events a takeover is made of (the old master's silence,
-- the standby's STANDBY -> MASTER, "no master" in between) point at the failover row and are
-- left out of the timeline. `after` is when the old master was last seen as master.
ALTER TABLE sm_events ADD COLUMN after INTEGER;
ALTER TABLE sm_events ADD COLUMN folded_into INTEGER;

-- The finding kind for a designated SM that does not answer (was sm-standby-lost, which was
-- also used for a dead master).
UPDATE findings SET kind = 'sm-not-seen' WHERE kind = 'sm-standby-lost';

-- Where the latest SM observation and the last single master are kept (settings keys sm.*).
INSERT OR IGNORE INTO settings (key, value)
SELECT 'sm.observed_at', MAX(at) FROM sm_observations HAVING MAX(at) IS NOT NULL;
INSERT OR IGNORE INTO settings (key, value)
SELECT 'sm.last_master', json_object('guid', guid, 'at', at) FROM sm_observations
WHERE state = 'MASTER' AND scan_id = (
  SELECT scan_id FROM sm_observations GROUP BY scan_id HAVING SUM(state = 'MASTER') = 1 ORDER BY scan_id DESC LIMIT 1
);

-- SMs are reported by port GUID; naming one looked its port up by a scan of every port (9.5 ms
-- per SM at 75k ports, on every /api/summary, /api/sms and /metrics; 0.02 ms with the index).
CREATE INDEX ports_port_guid ON ports (port_guid);
