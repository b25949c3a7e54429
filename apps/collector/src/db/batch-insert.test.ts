import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BatchInsert } from './batch-insert.ts';
import type { Db } from './open-db.ts';

describe('BatchInsert', () => {
  it('writes every row, whole batches and the rest, with its ON CONFLICT and RETURNING clauses', () => {
    const db = new Database(':memory:') as unknown as Db;
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 1)');
    const returned: unknown[] = [];
    const ins = new BatchInsert(
      db,
      'INSERT INTO t (k, v)',
      2,
      'ON CONFLICT (k) DO UPDATE SET v = excluded.v, n = n + 1 RETURNING k, n',
      (rows) => returned.push(...rows),
    );
    // 600 rows = 2 batches of 256 + 88 single rows; keys 0..299 twice, the second time updated.
    for (let i = 0; i < 600; i++) ins.add(i % 300, `v${i}`);
    ins.flush();
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(300);
    expect(db.prepare('SELECT v, n FROM t WHERE k = 7').get()).toEqual({ v: 'v307', n: 2 });
    expect(db.prepare('SELECT v, n FROM t WHERE k = 299').get()).toEqual({ v: 'v599', n: 2 });
    expect(returned).toHaveLength(600);
    expect(returned.filter((r) => (r as { n: number }).n === 2)).toHaveLength(300);
    expect(() => ins.add(1)).toThrow(/1 values for 2 columns/);
  });
});
