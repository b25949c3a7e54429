import type { Db } from './open-db.ts';

/**
 * A node's, port's or link's last-seen time as SQL, `t` being the table's alias: the latest
 * topology scan's time for the rows it saw, else the row's own `last_seen` (migration 0018).
 * Every reader of `last_seen` of these tables goes through it.
 */
export const lastSeenSql = (t: string): string =>
  `(CASE WHEN ${t}.seen_latest THEN (SELECT at FROM topology_seen) ELSE ${t}.last_seen END)`;

/** When the latest topology scan ran (null before the first one since migration 0018). */
export function latestSeenAt(db: Db): number | null {
  return (db.prepare('SELECT at FROM topology_seen').pluck().get() as number | undefined) ?? null;
}

/** Records the time of the scan that just stored its topology (inside its transaction). */
export function setLatestSeenAt(db: Db, at: number): void {
  db.prepare('INSERT INTO topology_seen (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at').run(
    at,
  );
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
