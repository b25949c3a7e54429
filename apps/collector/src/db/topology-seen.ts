import { createHash } from 'node:crypto';
import type { FabricLink, FabricNode, FabricPort } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/**
 * A node's, port's or link's last-seen time as SQL, `t` being the table's alias: the latest
 * topology scan's time for the rows it saw, else the row's own `last_seen` (migration 0018).
 * Every reader of `last_seen` of these tables goes through it.
 */
export const lastSeenSql = (t: string): string =>
  `(CASE WHEN ${t}.seen_latest THEN (SELECT at FROM topology_seen) ELSE ${t}.last_seen END)`;

/** The latest topology scan: when it ran, its input's fingerprint and the row counts it left. */
export interface LatestSeen {
  at: number;
  /** inputFingerprint of its nodes, ports and links; null when it listed a node or port twice. */
  input: string | null;
  /** shapeOf the tables right after it. */
  shape: string;
}

/** The latest topology scan (null before the first one since migration 0018). */
export function latestSeen(db: Db): LatestSeen | null {
  return (db.prepare('SELECT at, input, shape FROM topology_seen').get() as LatestSeen | undefined) ?? null;
}

/** Records the scan that just stored its topology (inside its transaction). */
export function setLatestSeen(db: Db, at: number, input: string | null, shape: string): void {
  db.prepare(
    `INSERT INTO topology_seen (id, at, input, shape) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET at = excluded.at, input = excluded.input, shape = excluded.shape`,
  ).run(at, input, shape);
}

/** Row counts of nodes, ports and links: a write behind ingest's back (a test, a repair) moves them. */
export function shapeOf(db: Db): string {
  return db
    .prepare(
      "SELECT (SELECT COUNT(*) FROM nodes) || '/' || (SELECT COUNT(*) FROM ports) || '/' || " +
        '(SELECT COUNT(*) FROM links)',
    )
    .pluck()
    .get() as string;
}

/**
 * True when a scan at `at` with input fingerprint `input` would find every node, port and link
 * as stored: the latest scan had the same input (no node or port twice) and nothing but a
 * scan wrote the rows since. Then the scan would write nothing but its time: the fingerprint
 * is of everything ingest compares, and ingest leaves the rows as its input says. `at` must be
 * later than the latest scan and every link's first_seen, or the new-link count could differ.
 */
export function unchangedSince(db: Db, last: LatestSeen, input: string, at: number): boolean {
  if (last.input !== input || !(at > last.at) || last.shape !== shapeOf(db)) return false;
  const firstSeen = db.prepare('SELECT MAX(first_seen) FROM links').pluck().get() as number | null;
  return firstSeen === null || at > firstSeen;
}

const list = (v: readonly string[] | undefined) => (v && v.length ? v.join(',') : null);

/**
 * A hash of everything ingest stores of a scan's nodes, ports and links, in the scan's order
 * (JSON per row: no two inputs share a text).
 */
export function inputFingerprint(
  nodes: readonly FabricNode[],
  ports: readonly FabricPort[],
  links: readonly FabricLink[],
  complete: boolean,
): string {
  const h = createHash('sha256');
  let buf = complete ? 'complete\n' : 'partial\n';
  const put = (s: string) => {
    buf += s;
    if (buf.length > 65_536) {
      h.update(buf);
      buf = '';
    }
  };
  for (const n of nodes) put(JSON.stringify([n.guid, n.type, n.description, n.numPorts, n.lid ?? null]));
  put('\n');
  for (const p of ports)
    put(
      JSON.stringify([
        p.nodeGuid,
        p.portNum,
        p.portGuid ?? null,
        p.lid ?? null,
        p.state ?? null,
        p.physState ?? null,
        p.widthActive ?? null,
        p.speedActive ?? null,
        list(p.widthEnabled),
        list(p.widthSupported),
        list(p.speedEnabled),
        list(p.speedSupported),
      ]),
    );
  put('\n');
  for (const l of links) put(JSON.stringify([l.a.nodeGuid, l.a.portNum, l.b.nodeGuid, l.b.portNum]));
  h.update(buf);
  return h.digest('base64');
}

/**
 * Rows the latest scan saw and this one did not: their last-seen time becomes that scan's
 * (`previousAt`), kept in the row. `key` is the table's key column, `keys` its values.
 */
export function stopSeeing(
  db: Db,
  table: 'nodes' | 'ports' | 'links',
  key: 'guid' | 'id',
  keys: (string | number)[],
  previousAt: number,
): void {
  if (!keys.length) return;
  db.prepare(`UPDATE ${table} SET last_seen = ?, seen_latest = 0 WHERE ${key} IN (SELECT value FROM json_each(?))`).run(
    previousAt,
    JSON.stringify(keys),
  );
}
