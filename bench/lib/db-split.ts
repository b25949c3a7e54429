/**
 * What takes the space of a database file, by table and index (SQLite's dbstat virtual table):
 * the size stages print it so that a size figure says which table to shrink.
 */
import type { Db } from '../../apps/collector/src/db/open-db.ts';

export interface SplitRow {
  name: string;
  bytes: number;
}

/** Pages of each table and index in bytes, largest first (sqlite_* internals included). */
export function dbSplit(db: Db): SplitRow[] {
  return db
    .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
    .all() as SplitRow[];
}

/** "counter_deltas 412 MB, counter_deltas_port_at 160 MB, ...": the tables and indexes of `min` bytes or more. */
export function splitText(rows: readonly SplitRow[], min = 1e6): string {
  const big = rows.filter((r) => r.bytes >= min);
  const rest = rows.filter((r) => r.bytes < min).reduce((s, r) => s + r.bytes, 0);
  const mb = (b: number) => `${(b / 1e6).toFixed(b < 1e7 ? 1 : 0)} MB`;
  return [...big.map((r) => `${r.name} ${mb(r.bytes)}`), `the rest ${mb(rest)}`].join(', ');
}
