import type { Db } from './open-db.ts';

/**
 * A stamp that moves on every commit: `total_changes()` counts this connection's writes and
 * `data_version` moves when another connection (the CLI, a worker) commits. Both are O(1), so
 * a cache can ask it on every request.
 */
export function writeStamp(db: Db): () => string {
  const st = db.prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)').raw();
  return () => (st.get() as unknown[]).join('/');
}

/**
 * A stamp that moves only when `content()` does, and runs `content()` only after a write:
 * for caches whose source tables are written less often than the database as a whole
 * (scan rows, SM observations and nccl imports commit without touching the topology).
 * Read it before building what it stamps: a commit landing during the build then costs one
 * extra rebuild, never a stale reply under a new stamp.
 */
export function contentStamp(db: Db, content: () => string): () => string {
  const writes = writeStamp(db);
  let w: string | null = null;
  let c = '';
  return () => {
    const now = writes();
    if (now !== w) {
      w = now;
      c = content();
    }
    return c;
  };
}

/** `build()`'s value, computed again only when `stamp()` has moved since the last call. */
export function stamped<T>(stamp: () => string, build: () => T): () => T {
  let s: string | null = null;
  let v: T;
  return () => {
    const now = stamp();
    if (now !== s) {
      v = build();
      s = now;
    }
    return v;
  };
}
