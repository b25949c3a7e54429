import type { SmEventRow, SmObservation, SmState } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/** An SM as stored in sm_known: state, priority and LID as last seen. */
export interface KnownSmRow {
  guid: string;
  firstSeen: number;
  lastSeen: number;
  lid: number | null;
  priority: number;
  state: SmState;
  activityCount: string | null;
  name: string | null;
  answering: boolean;
}

/** The designated SM ports learned from an SM observation (settings key `sm.designated`). */
export interface LearnedSms {
  guids: string[];
  learnedAt: number | null;
  /** A re-learn was asked for: the next observation that sees an SM replaces `guids`. */
  relearn: boolean;
}

type NewEvent = Omit<SmEventRow, 'id' | 'fromName' | 'toName' | 'after'> & { after?: number | null };

const KNOWN_COLUMNS = `guid, first_seen AS firstSeen, last_seen AS lastSeen, lid, priority, state,
  activity_count AS activityCount, name, answering`;

/**
 * SM observations per sweep, every SM ever seen (sm_known), the events derived from them
 * (failover, split brain, ...) and the SM keys of the settings table.
 */
export function createSmRepo(db: Db) {
  const insertObs = db.prepare(
    'INSERT INTO sm_observations (scan_id, at, guid, lid, priority, state, activity_count, name) VALUES (?, ?, ' +
      '?, ?, ?, ?, ?, ?)',
  );
  const insertEvent = db.prepare(
    'INSERT INTO sm_events (at, kind, from_guid, to_guid, detail, scan_id, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const upsertKnown = db.prepare(
    `INSERT INTO sm_known (guid, first_seen, last_seen, lid, priority, state, activity_count, name, answering)
     VALUES (@guid, @at, @at, @lid, @priority, @state, @activityCount, @name, 1)
     ON CONFLICT (guid) DO UPDATE SET last_seen = @at, lid = @lid, priority = @priority, state = @state,
       activity_count = @activityCount, name = COALESCE(@name, name), answering = 1`,
  );
  const getSetting = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const setSetting = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const toKnown = (r: Omit<KnownSmRow, 'answering' | 'state'> & { state: string; answering: number }) => ({
    ...r,
    state: r.state as SmState,
    answering: r.answering === 1,
  });
  const setting = <T>(key: string): T | null => {
    const v = getSetting.get(key) as string | undefined;
    return v === undefined ? null : (JSON.parse(v) as T);
  };
  const put = (key: string, value: unknown) => setSetting.run(key, JSON.stringify(value));

  return {
    /**
     * Stores one observation: its rows in sm_observations, every SM it saw in sm_known (now
     * answering), every other known SM marked not answering, and the observation time.
     */
    record(scanId: number, at: number, sms: readonly SmObservation[]): void {
      db.prepare('UPDATE sm_known SET answering = 0 WHERE answering = 1').run();
      for (const s of sms) {
        const row = {
          guid: s.guid,
          at,
          lid: s.lid ?? null,
          priority: s.priority,
          state: s.state,
          activityCount: s.activityCount?.toString() ?? null,
          name: s.nodeDescription ?? null,
        };
        insertObs.run(scanId, at, row.guid, row.lid, row.priority, row.state, row.activityCount, row.name);
        upsertKnown.run(row);
      }
      put('sm.observed_at', at);
    },
    /** Every SM ever seen (until forgotten), answering ones first, then by priority. */
    known(): KnownSmRow[] {
      return (
        db
          .prepare(`SELECT ${KNOWN_COLUMNS} FROM sm_known ORDER BY answering DESC, priority DESC, guid`)
          .all() as Parameters<typeof toKnown>[0][]
      ).map(toKnown);
    },
    /** Time of the latest SM observation (even one that saw no SM), or null before the first. */
    observedAt(): number | null {
      return setting<number>('sm.observed_at');
    },
    /** The last SM seen as the single master, and when: the baseline of the next failover. */
    lastMaster(): { guid: string; at: number } | null {
      return setting<{ guid: string; at: number }>('sm.last_master');
    },
    setLastMaster(guid: string, at: number): void {
      put('sm.last_master', { guid, at });
    },
    learned(): LearnedSms | null {
      return setting<LearnedSms>('sm.designated');
    },
    setLearned(guids: readonly string[], at: number): void {
      put('sm.designated', { guids: [...guids].sort(), learnedAt: at, relearn: false } satisfies LearnedSms);
    },
    /** Asks the next observation that sees an SM to learn the designated list again. */
    requestRelearn(): void {
      put('sm.designated', { ...(this.learned() ?? { guids: [], learnedAt: null }), relearn: true });
    },
    /** Drops known SMs that do not answer now, except `keep` (a re-learn forgets the rest). */
    forgetNotAnswering(keep: readonly string[]): number {
      return db
        .prepare('DELETE FROM sm_known WHERE answering = 0 AND guid NOT IN (SELECT value FROM json_each(?))')
        .run(JSON.stringify(keep)).changes;
    },
    /** Drops SMs not seen since `before` that are not designated (a rogue SM long gone). */
    pruneKnown(before: number, keep: readonly string[]): number {
      return db
        .prepare(
          'DELETE FROM sm_known WHERE answering = 0 AND last_seen < ? AND guid NOT IN (SELECT value FROM json_each(?))',
        )
        .run(before, JSON.stringify(keep)).changes;
    },
    /** LIDs of SMs seen since `since`, to ask each directly (`sminfo <lid>`): newest first, at most 8. */
    lidsToAsk(since: number): number[] {
      return db
        .prepare('SELECT lid FROM sm_known WHERE lid IS NOT NULL AND last_seen > ? ORDER BY last_seen DESC LIMIT 8')
        .pluck()
        .all(since) as number[];
    },
    addEvent(e: NewEvent, scanId: number | null): number {
      return Number(
        insertEvent.run(e.at, e.kind, e.fromGuid, e.toGuid, e.detail, scanId, e.after ?? null).lastInsertRowid,
      );
    },
    /**
     * Folds events into a failover row: those of `ids`, and those since `after` of the given
     * kinds that are about one of `guids` (or about no SM, like "no master").
     */
    fold(
      into: number,
      o: { ids: readonly number[]; after: number; kinds: readonly string[]; guids: readonly string[] },
    ) {
      db.prepare(
        `UPDATE sm_events SET folded_into = @into WHERE id != @into AND folded_into IS NULL AND (
           id IN (SELECT value FROM json_each(@ids))
           OR (at > @after AND kind IN (SELECT value FROM json_each(@kinds))
               AND (from_guid IS NULL OR from_guid IN (SELECT value FROM json_each(@guids)))))`,
      ).run({
        into,
        ids: JSON.stringify(o.ids),
        after: o.after,
        kinds: JSON.stringify(o.kinds),
        guids: JSON.stringify(o.guids),
      });
    },
    /** The timeline, newest first: events folded into a failover are left out. */
    events(limit: number, since = 0): Omit<SmEventRow, 'fromName' | 'toName'>[] {
      return db
        .prepare(
          `SELECT id, at, kind, from_guid AS fromGuid, to_guid AS toGuid, after, detail FROM sm_events
           WHERE at >= ? AND folded_into IS NULL ORDER BY at DESC, id DESC LIMIT ?`,
        )
        .all(since, limit) as Omit<SmEventRow, 'fromName' | 'toName'>[];
    },
    /**
     * The node and port behind an SM GUID. sminfo and the SA name SMs by PORT GUID, which on an
     * HCA differs from the node GUID the name map is keyed by ("smsm_port_guid 0x...a1" vs node
     * ...a0); a switch's SM sits at port 0, whose GUID is the node's.
     */
    portOf(guid: string): { nodeGuid: string; description: string; portNum: number } | null {
      return (
        (db
          .prepare(
            `SELECT n.guid AS nodeGuid, n.description, p.port_num AS portNum FROM ports p JOIN nodes n ON
            n.guid = p.node_guid
             WHERE p.port_guid = @g OR p.node_guid = @g ORDER BY p.port_guid = @g DESC, p.port_num LIMIT 1`,
          )
          .get({ g: guid }) as { nodeGuid: string; description: string; portNum: number } | undefined) ?? null
      );
    },
    failoversSince(since: number): number {
      return db
        .prepare("SELECT COUNT(*) FROM sm_events WHERE kind = 'failover' AND at >= ?")
        .pluck()
        .get(since) as number;
    },
  };
}
export type SmRepo = ReturnType<typeof createSmRepo>;
