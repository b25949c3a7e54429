import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BatchInsert, createIndexes, dropIndexes, dropIndexesIfEmpty } from './batch-insert.ts';
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

describe('dropIndexesIfEmpty', () => {
  const schema = (db: Db) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name = 't' ORDER BY name").all();
  const make = () => {
    const db = new Database(':memory:') as unknown as Db;
    db.exec(`CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL, w INTEGER, UNIQUE (v));
      CREATE INDEX t_w ON t (w); CREATE INDEX t_vw ON t (v, w) WHERE w > 0;
      CREATE UNIQUE INDEX t_kw ON t (k, w)`);
    return db;
  };

  it("drops an empty table's own indexes and builds the same ones again, rows included", () => {
    const db = make();
    const before = schema(db);
    db.transaction(() => {
      const dropped = dropIndexesIfEmpty(db, 't');
      expect(dropped.map((i) => i.name).sort()).toEqual(['t_vw', 't_w']);
      // The UNIQUE constraint's index and the UNIQUE index stay: they still refuse a duplicate.
      expect(schema(db).map((r) => (r as { name: string }).name)).toEqual(['sqlite_autoindex_t_1', 't', 't_kw']);
      for (let i = 0; i < 50; i++) db.prepare('INSERT INTO t (v, w) VALUES (?, ?)').run(`v${i}`, i % 7);
      expect(() => db.prepare("INSERT INTO t (v) VALUES ('v3')").run()).toThrow(/UNIQUE/);
      createIndexes(db, dropped);
    })();
    expect(schema(db)).toEqual(before);
    expect(db.prepare('SELECT COUNT(*) FROM t INDEXED BY t_w WHERE w = 3').pluck().get()).toBe(7);
    expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  });

  it('keeps the indexes of a table with rows, and a failed fill rolls the dropped ones back', () => {
    const db = make();
    const before = schema(db);
    expect(() =>
      db.transaction(() => {
        expect(dropIndexesIfEmpty(db, 't')).toHaveLength(2);
        db.prepare("INSERT INTO t (v) VALUES ('a')").run();
        throw new Error('fill failed');
      })(),
    ).toThrow('fill failed');
    expect(schema(db)).toEqual(before);
    db.prepare("INSERT INTO t (v) VALUES ('a')").run();
    db.transaction(() => expect(dropIndexesIfEmpty(db, 't')).toEqual([]))();
    expect(schema(db)).toEqual(before);
    db.exec('DELETE FROM t');
    expect(dropIndexesIfEmpty(db, 't')).toEqual([]); // outside a transaction
    expect(schema(db)).toEqual(before);
  });

  it('dropIndexes drops the plain indexes of a table with rows too (the db-size bench), never UNIQUE ones', () => {
    const db = make();
    const before = schema(db);
    db.prepare("INSERT INTO t (v, w) VALUES ('a', 1)").run();
    const dropped = dropIndexes(db, 't');
    expect(dropped.map((i) => i.name).sort()).toEqual(['t_vw', 't_w']);
    expect(schema(db).map((r) => (r as { name: string }).name)).toEqual(['sqlite_autoindex_t_1', 't', 't_kw']);
    createIndexes(db, dropped);
    expect(schema(db)).toEqual(before);
  });
});
