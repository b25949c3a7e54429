import { createHash } from 'node:crypto';
import type { SmLogEvent } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/** An event to store: the parsed event with its time as epoch ms. */
export type NewSmLogEvent = Omit<SmLogEvent, 'id'>;

/** Where the follower stopped (settings key `opensm-log.follow`). */
export interface FollowState {
  path: string;
  dev: number;
  ino: number;
  offset: number;
}

const FOLLOW_KEY = 'opensm-log.follow';

const COLUMNS = `id, at, time, kind, state, err_code AS errCode, guid, host, pid, duration_ms AS durationMs,
  message, source`;

/**
 * The same line read twice (a re-import, the follower after an import of a copy) has the same
 * stamp, origin and text: it is stored once. Lines without a stamp also carry their source and
 * line number, so two bare `Entering MASTER state` lines are two events.
 */
export function fingerprint(e: NewSmLogEvent, line: number): string {
  const parts = [e.time ?? `${e.source}:${line}`, e.host ?? '', e.pid ?? '', e.kind, e.message];
  return createHash('sha1').update(parts.join('\u0000')).digest('hex');
}

/** OpenSM log events and the follower's position. */
export function createOpensmLogRepo(db: Db) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO opensm_log_events (at, time, kind, state, err_code, guid, host, pid, duration_ms,
       message, source, imported_at, fingerprint)
     VALUES (@at, @time, @kind, @state, @errCode, @guid, @host, @pid, @durationMs, @message, @source, @importedAt,
       @fingerprint)`,
  );
  const getSetting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const setSetting = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    /** Stores the events not stored yet; returns how many were new. */
    insert(events: readonly { event: NewSmLogEvent; line: number }[], importedAt: number): number {
      let stored = 0;
      for (const { event, line } of events)
        stored += insert.run({ ...event, importedAt, fingerprint: fingerprint(event, line) }).changes;
      return stored;
    },
    /** Newest first (by the SM's time; events without a stamp by when they were stored). */
    list(limit: number): SmLogEvent[] {
      return db
        .prepare(`SELECT ${COLUMNS} FROM opensm_log_events ORDER BY COALESCE(at, imported_at) DESC, id DESC LIMIT ?`)
        .all(limit) as SmLogEvent[];
    },
    /** Oldest first: the events findings are judged from. */
    lifecycleEvents(kinds: readonly string[]): SmLogEvent[] {
      return db
        .prepare(
          `SELECT ${COLUMNS} FROM opensm_log_events WHERE kind IN (SELECT value FROM json_each(?))
           ORDER BY COALESCE(at, imported_at), id`,
        )
        .all(JSON.stringify(kinds)) as SmLogEvent[];
    },
    followState(): FollowState | null {
      const v = getSetting.get(FOLLOW_KEY) as string | undefined;
      return v === undefined ? null : (JSON.parse(v) as FollowState);
    },
    setFollowState(s: FollowState): void {
      setSetting.run(FOLLOW_KEY, JSON.stringify(s));
    },
  };
}

export type OpensmLogRepo = ReturnType<typeof createOpensmLogRepo>;
