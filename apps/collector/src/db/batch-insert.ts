import type { Db } from './open-db.ts';

/** Rows per statement: SQLite allows 32766 parameters, so up to 127 columns at this size. */
const BATCH = 256;

/**
 * Many rows through one INSERT: `head` is `INSERT INTO t (a, b, ...)` with `width` columns,
 * `tail` what follows the VALUES (an ON CONFLICT clause, RETURNING...). The rows go `BATCH` to a
 * statement: the first import of a 10k-GPU fabric writes ~200k rows (ports, their first state,
 * links, counter baselines), and one statement per row cost more than writing the rows.
 */
export class BatchInsert {
  private readonly many;
  private readonly one;
  private readonly params: unknown[] = [];
  private readonly returns: boolean;

  /** `onRows` gets what a statement with a RETURNING `tail` returned, batch after batch. */
  constructor(
    db: Db,
    head: string,
    private readonly width: number,
    tail = '',
    private readonly onRows?: (rows: unknown[]) => void,
  ) {
    const row = `(${Array(width).fill('?').join(', ')})`;
    this.many = db.prepare(`${head} VALUES ${Array(BATCH).fill(row).join(', ')} ${tail}`);
    this.one = db.prepare(`${head} VALUES ${row} ${tail}`);
    this.returns = onRows !== undefined;
  }

  /** One row's values, in the columns' order. */
  add(...values: unknown[]): void {
    if (values.length !== this.width) throw new Error(`BatchInsert: ${values.length} values for ${this.width} columns`);
    this.params.push(...values);
    if (this.params.length === BATCH * this.width) {
      this.exec(this.many, this.params);
      this.params.length = 0;
    }
  }

  /** Writes the rows still held (fewer than a batch), one statement each. */
  flush(): void {
    for (let k = 0; k < this.params.length; k += this.width) this.exec(this.one, this.params.slice(k, k + this.width));
    this.params.length = 0;
  }

  private exec(st: ReturnType<Db['prepare']>, params: unknown[]): void {
    if (this.returns) this.onRows!(st.all(params));
    else st.run(params);
  }
}

/** An index `dropIndexes` dropped: its name and the SQL that made it. */
export type DroppedIndex = { name: string; sql: string };

/**
 * Drops `table`'s own indexes (not its key or UNIQUE ones) for `createIndexes` to build again
 * once the rows are in: building an index once over the rows costs less than growing it row by
 * row when the rows arrive out of the index's order. The caller owns the risk of a table left
 * without them; the collector uses {@link dropIndexesIfEmpty}.
 */
export function dropIndexes(db: Db, table: string): DroppedIndex[] {
  const indexes = db
    .prepare(
      // A UNIQUE index also enforces a constraint (and an upsert's ON CONFLICT target): keep it.
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL
         AND sql NOT LIKE 'CREATE UNIQUE %'`,
    )
    .all(table) as DroppedIndex[];
  for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`);
  return indexes;
}

/**
 * {@link dropIndexes} when the table is empty (~1 s of a 45k-GPU fabric's first import: 293k
 * ports arrive in GUID order, not in lid or port GUID order). Only inside the transaction that
 * fills the table (outside one it drops nothing): should the fill fail, the rollback brings the
 * indexes back.
 */
export function dropIndexesIfEmpty(db: Db, table: string): DroppedIndex[] {
  // Outside a transaction a failure could leave the table without them: keep them there.
  if (!db.inTransaction || db.prepare(`SELECT EXISTS (SELECT 1 FROM "${table}")`).pluck().get() === 1) return [];
  return dropIndexes(db, table);
}

/** Creates again what `dropIndexes` dropped, from the same SQL. */
export function createIndexes(db: Db, indexes: DroppedIndex[]): void {
  for (const i of indexes) db.exec(i.sql);
}
