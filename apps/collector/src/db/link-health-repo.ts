/** What colours links (health, reason): the findings at their ends, and the links' own columns. */
import type { Db } from './open-db.ts';

export interface LinkHealthRow {
  id: number;
  health: string;
  reason: string | null;
  /** `<guid>/<port>` of each end. */
  a: string;
  b: string;
}

/**
 * Findings the latest scans observed on ports and links (cleared_at NULL), except info ones and
 * ibdiagnet's own: those say nothing of the link's health now, ibwatch's rules judge the same run.
 */
export function observedLinkFindings(db: Db): { kind: string; key: string; reason: string }[] {
  return db
    .prepare(
      `SELECT kind, subject_key AS key, COALESCE(short, title) AS reason FROM findings
       WHERE cleared_at IS NULL AND subject_type IN ('port', 'link') AND severity != 'info'
         AND kind NOT LIKE 'ibdiagnet-%'`,
    )
    .all() as { kind: string; key: string; reason: string }[];
}

const SELECT = `SELECT l.id, l.health, l.reason, pa.node_guid || '/' || pa.port_num AS a,
       pb.node_guid || '/' || pb.port_num AS b FROM links l
       JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id`;
// MATERIALIZED: the ends are looked up once; used as `a IN ids ... b IN ids`, SQLite read the
// JSON and searched the ports once per use.
const IDS =
  'WITH ids AS MATERIALIZED (SELECT p.id FROM json_each(?) j ' +
  'JOIN ports p ON p.node_guid = j.value ->> 0 AND p.port_num = j.value ->> 1)';

/**
 * The links with an end among `ends` (`[guid, port]` pairs). The ends are looked up once (IDS),
 * the links' ids found through the two port indexes alone, and only those rows joined to their
 * ports' names: ~30% less CPU at 45k GPUs, where a PM sweep passes ~3,000 ends.
 */
export function linksAtEnds(db: Db, ends: (string | number)[][]): LinkHealthRow[] {
  return db
    .prepare(
      `${IDS},
       hit AS (SELECT id FROM links WHERE a_port_id IN ids UNION SELECT id FROM links WHERE b_port_id IN ids)
       ${SELECT} WHERE l.id IN hit`,
    )
    .all(JSON.stringify(ends)) as LinkHealthRow[];
}

/** The links coloured now (health or reason set), plus those with an end among `ends`. */
export function colouredOrAtEnds(db: Db, ends: (string | number)[][]): LinkHealthRow[] {
  return db
    .prepare(
      `${IDS} ${SELECT} WHERE l.health != 'ok' OR l.reason IS NOT NULL OR l.a_port_id IN ids OR l.b_port_id IN ids`,
    )
    .all(JSON.stringify(ends)) as LinkHealthRow[];
}

/** A writer of one link's colour, its statement prepared once for a whole refresh. */
export function linkHealthWriter(db: Db): (id: number, health: string, reason: string | null) => void {
  const update = db.prepare('UPDATE links SET health = ?, reason = ? WHERE id = ?');
  return (id, health, reason) => void update.run(health, reason, id);
}
