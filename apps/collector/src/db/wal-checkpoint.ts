import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { writeTransaction, type Db } from './open-db.ts';

/**
 * The checkpoint of a PM sweep's write, run by a worker thread on a connection of its own.
 *
 * In WAL mode SQLite copies the WAL into the main file inside the COMMIT that takes it past
 * `wal_autocheckpoint` pages (1,000). A 45k-GPU sweep writes ~5,300 pages (22 MB: counter_last,
 * link colours, traffic rollups, findings), so every sweep's COMMIT did that copy, and its fsyncs,
 * on the event loop: time the sweep and every API request queued behind it waited for. A PASSIVE
 * checkpoint needs no write lock and waits for no one, so another connection can do the same copy
 * while this one serves and writes on. Data and schema are the same either way; only when the main
 * file catches up moves.
 *
 * One thread per database file, started at the first deferred checkpoint and kept (a new thread
 * per sweep cost ~85 ms of CPU, ~0.9% of a core at a 10-s cadence). It opens a connection for
 * each checkpoint and closes it after, so no connection lingers between sweeps. It is unref'd, so
 * it never keeps a process alive, and `closeDeferringCheckpoint` ends it with the database. A
 * process that exits first loses nothing: the WAL is durable, and the last connection to close
 * copies it. While a deferred checkpoint is pending the main connection's automatic checkpoint is
 * off (a commit in between would start the same copy on the event loop); when it is done it is
 * back as it was.
 */

// Plain CommonJS (no TypeScript loader in the thread), loading the collector's own better-sqlite3.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
parentPort.on('message', (file) => {
  let result;
  try {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 0');
      result = db.pragma('wal_checkpoint(PASSIVE)')[0];
    } finally {
      db.close();
    }
  } catch (err) {
    result = { error: String(err && err.message || err) };
  }
  parentPort.postMessage(result);
});
`;
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** What one PASSIVE checkpoint reported (`busy` 1: a reader held pages back), or why it failed. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number } | { error: string };

interface Checkpointer {
  worker: Worker;
  /** Resolvers of the checkpoints asked for, in order (the thread answers them in order). */
  waiting: ((r: CheckpointResult) => void)[];
}
const checkpointers = new Map<string, Checkpointer>();

function checkpointer(file: string): Checkpointer {
  const running = checkpointers.get(file);
  if (running) return running;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: DRIVER } });
  worker.unref();
  const made: Checkpointer = { worker, waiting: [] };
  worker.on('message', (r: CheckpointResult) => made.waiting.shift()?.(r));
  const fail = (why: string) => {
    if (checkpointers.get(file) === made) checkpointers.delete(file);
    for (const resolve of made.waiting.splice(0)) resolve({ error: why });
  };
  worker.on('error', (err) => fail(err.message));
  worker.on('exit', (code) => fail(`checkpoint thread exited (${code})`));
  checkpointers.set(file, made);
  return made;
}

/** The id of `file`'s checkpoint thread, while there is one (for tests). */
export function checkpointThreadOf(file: string): number | undefined {
  return checkpointers.get(file)?.worker.threadId;
}

/** One PASSIVE checkpoint of `file` on its thread; never rejects (SQLite retries a failed one later). */
function checkpointOnWorker(file: string): Promise<CheckpointResult> {
  const c = checkpointer(file);
  return new Promise((resolve) => {
    c.waiting.push(resolve);
    c.worker.postMessage(file);
  });
}

interface Pending {
  /** The main connection's `wal_autocheckpoint` before the first deferred checkpoint. */
  restore: number;
  done: Promise<CheckpointResult | undefined>;
}
const pending = new WeakMap<Db, Pending>();

/**
 * `writeTransaction`, its checkpoint done by a worker thread instead of inside its COMMIT. An
 * in-memory or read-only database, or one not in WAL mode, gets a plain `writeTransaction`.
 */
export function writeDeferringCheckpoint<T>(db: Db, fn: () => T): T {
  if (db.memory || db.readonly || String(db.pragma('journal_mode', { simple: true })) !== 'wal')
    return writeTransaction(db, fn);
  const p = pending.get(db);
  const restore = p?.restore ?? Number(db.pragma('wal_autocheckpoint', { simple: true }));
  db.pragma('wal_autocheckpoint = 0');
  let result: T;
  try {
    result = writeTransaction(db, fn);
  } catch (err) {
    // Nothing was written: no checkpoint to defer (unless an earlier one still runs).
    if (!p) db.pragma(`wal_autocheckpoint = ${restore}`);
    throw err;
  }
  const file = db.name;
  const done: Promise<CheckpointResult | undefined> = (p?.done ?? Promise.resolve(undefined))
    .then(() => (db.open ? checkpointOnWorker(file) : undefined))
    .finally(() => {
      if (pending.get(db)?.done !== done) return; // a later write chained its own
      pending.delete(db);
      if (db.open) db.pragma(`wal_autocheckpoint = ${restore}`);
    });
  pending.set(db, { restore, done });
  return result;
}

/** Resolves once the deferred checkpoints of `db` have run, with the last one's result. */
export function checkpointSettled(db: Db): Promise<CheckpointResult | undefined> {
  return pending.get(db)?.done ?? Promise.resolve(undefined);
}

/**
 * Closes `db` after its deferred checkpoint, and ends the file's checkpoint thread: a collector
 * that closes (a test's app, a server's shutdown) leaves no thread and its memory behind. A
 * checkpoint that another connection to the same file asked for meanwhile resolves with an
 * error, as when the thread fails; SQLite copies that WAL at its next checkpoint instead.
 */
export async function closeDeferringCheckpoint(db: Db): Promise<void> {
  await checkpointSettled(db);
  const file = db.name;
  if (db.open) db.close();
  const c = checkpointers.get(file);
  if (c === undefined) return;
  checkpointers.delete(file);
  await c.worker.terminate();
}
