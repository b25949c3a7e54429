import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from './open-db.ts';
import {
  checkpointSettled,
  checkpointThreadOf,
  closeDeferringCheckpoint,
  writeDeferringCheckpoint,
} from './wal-checkpoint.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-wal-checkpoint-');
afterAll(tmp.cleanup);

/** ~8 MB of rows: far more than the 1000 pages (4 MB) of SQLite's automatic checkpoint. */
function fill(db: ReturnType<typeof openDb>): void {
  const ins = db.prepare('INSERT INTO blobs (b) VALUES (?)');
  for (let i = 0; i < 2000; i++) ins.run(Buffer.alloc(4000, i & 255));
}

describe('writeDeferringCheckpoint, a PM sweep write', () => {
  it('commits without copying the WAL into the file; a worker does, then autocheckpoint is back', async () => {
    const file = join(tmp.dir, 'bulk.db');
    const db = openDb(file);
    try {
      db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)');
      const before = statSync(file).size;
      expect(writeDeferringCheckpoint(db, () => (fill(db), 'result'))).toBe('result');
      // Committed and visible, but the main file has not grown: no checkpoint ran in the COMMIT
      // (a plain writeTransaction copies the ~8 MB into the file right there).
      expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(2000);
      expect(statSync(file).size).toBe(before);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const result = await checkpointSettled(db);
      expect(result).toMatchObject({ busy: 0 });
      expect(statSync(file).size).toBeGreaterThan(8_000_000);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      // The next sweep's checkpoint runs on the same thread, not a new one.
      const thread = checkpointThreadOf(file);
      expect(thread).toBeGreaterThan(0);
      writeDeferringCheckpoint(db, () => fill(db));
      expect(await checkpointSettled(db)).toMatchObject({ busy: 0 });
      expect(checkpointThreadOf(file)).toBe(thread);
      expect(statSync(file).size).toBeGreaterThan(16_000_000);
      // Nothing was left for this connection to copy.
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
      expect(row!.checkpointed).toBe(row!.log);
    } finally {
      db.close();
    }
  });

  it('closes after the pending checkpoint and ends the thread; the next database gets a new one', async () => {
    const file = join(tmp.dir, 'closed.db');
    const db = openDb(file);
    db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)');
    writeDeferringCheckpoint(db, () => fill(db));
    await checkpointSettled(db);
    const thread = checkpointThreadOf(file);
    expect(thread).toBeGreaterThan(0);
    // Closed at once, while the second write's checkpoint is still pending: the close waits for
    // it (a close that did not would skip it, and `pending` would resolve undefined).
    writeDeferringCheckpoint(db, () => fill(db));
    const pending = checkpointSettled(db);
    await closeDeferringCheckpoint(db);
    expect(await pending).toMatchObject({ busy: 0 });
    expect(db.open).toBe(false);
    expect(checkpointThreadOf(file)).toBeUndefined();
    expect(statSync(file).size).toBeGreaterThan(16_000_000);
    const again = openDb(file);
    try {
      expect(again.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(4000);
      writeDeferringCheckpoint(again, () => fill(again));
      expect(await checkpointSettled(again)).toMatchObject({ busy: 0 });
      expect(checkpointThreadOf(file)).toBeGreaterThan(thread!);
    } finally {
      await closeDeferringCheckpoint(again);
    }
  });

  it('rolls back and restores the automatic checkpoint when the transaction throws', async () => {
    const db = openDb(join(tmp.dir, 'failed.db'));
    try {
      db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)');
      expect(() =>
        writeDeferringCheckpoint(db, () => {
          fill(db);
          throw new Error('store failed');
        }),
      ).toThrow('store failed');
      expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(0);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      await checkpointSettled(db);
    } finally {
      db.close();
    }
  });

  it('is a plain transaction on an in-memory database', () => {
    const db = openDb(':memory:');
    try {
      db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)');
      writeDeferringCheckpoint(db, () => fill(db));
      expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(2000);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      db.close();
    }
  });
});
