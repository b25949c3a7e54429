-- What GET /api/topology shows, as change counters (issue 19). Its cache compared row counts,
-- MAX(last seen), SUM(present) and TOTAL(LENGTH(tier)) of 136k links after every commit (~20 ms
-- at 45k GPUs) and still missed a link's tier changing to one of the same length (leaf-spine ->
-- spine-core). Nodes, ports and the links' tiers are written in bulk (every row at a fabric's
-- first import: a trigger per row cost ~0.3 s at 10k GPUs, ~1.5 s estimated at 45k), so their
-- writers bump 'topology' in code, once per statement (topology-repo.ts, graph-queries.ts). The
-- links' other columns are written a few rows at a time, and a trigger keeps them:
-- 'links' moves when a link is deleted, changes ends or comes or goes (present);
-- 'link-colour' when its health or reason changes. Rewriting a value unchanged moves nothing.
INSERT OR IGNORE INTO change_counters (name, n) VALUES ('links', 0), ('link-colour', 0);

CREATE TRIGGER links_counter_delete AFTER DELETE ON links
BEGIN UPDATE change_counters SET n = n + 1 WHERE name = 'links'; END;
CREATE TRIGGER links_counter_update AFTER UPDATE OF id, a_port_id, b_port_id, present ON links
WHEN old.id IS NOT new.id OR old.a_port_id IS NOT new.a_port_id OR old.b_port_id IS NOT new.b_port_id
  OR old.present IS NOT new.present
BEGIN UPDATE change_counters SET n = n + 1 WHERE name = 'links'; END;
CREATE TRIGGER links_colour_update AFTER UPDATE OF health, reason ON links
WHEN old.health IS NOT new.health OR old.reason IS NOT new.reason
BEGIN UPDATE change_counters SET n = n + 1 WHERE name = 'link-colour'; END;
