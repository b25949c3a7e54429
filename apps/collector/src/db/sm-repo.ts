import type { SmEventRow, SmObservation, SmRow, SmState } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/** SM observations per sweep and the events derived from them (failover, split brain, ...). */
export function createSmRepo(db: Db) {
  const insertObs = db.prepare(
    'INSERT INTO sm_observations (scan_id, at, guid, lid, priority, state, activity_count, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertEvent = db.prepare(
    'INSERT INTO sm_events (at, kind, from_guid, to_guid, detail, scan_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  return {
    record(scanId: number, at: number, sms: SmObservation[], nameOf: (guid: string) => string | null): void {
      for (const s of sms) {
        insertObs.run(
          scanId,
          at,
          s.guid,
          s.lid ?? null,
          s.priority,
          s.state,
          s.activityCount?.toString() ?? null,
          s.nodeDescription ?? nameOf(s.guid),
        );
      }
    },
    /** The SMs seen by the latest SM scan (one row per GUID). */
    latest(): { at: number; sms: SmRow[] } | null {
      const last = db.prepare('SELECT MAX(scan_id) AS id, MAX(at) AS at FROM sm_observations').get() as {
        id: number | null;
        at: number | null;
      };
      if (last.id === null) return null;
      const rows = db
        .prepare(
          'SELECT guid, lid, name, priority, state, activity_count AS activityCount, at AS lastSeen FROM sm_observations WHERE scan_id = ? ORDER BY priority DESC, guid',
        )
        .all(last.id) as (Omit<SmRow, 'state'> & { state: string })[];
      return { at: last.at!, sms: rows.map((r) => ({ ...r, state: r.state as SmState })) };
    },
    /** The observations of the previous SM scan before `scanId`, for change detection. */
    previous(beforeScanId: number): SmObservation[] {
      const id = db.prepare('SELECT MAX(scan_id) FROM sm_observations WHERE scan_id < ?').pluck().get(beforeScanId) as
        | number
        | null;
      if (id === null) return [];
      return (
        db.prepare('SELECT guid, lid, priority, state, name FROM sm_observations WHERE scan_id = ?').all(id) as {
          guid: string;
          lid: number | null;
          priority: number;
          state: string;
          name: string | null;
        }[]
      ).map((r) => ({
        guid: r.guid,
        lid: r.lid ?? undefined,
        priority: r.priority,
        state: r.state as SmState,
        nodeDescription: r.name ?? undefined,
      }));
    },
    /** The latest SM scan before `beforeScanId` that saw exactly one MASTER, with its observations. */
    lastWithOneMaster(beforeScanId: number): { at: number; sms: SmObservation[] } | null {
      const row = db
        .prepare(
          `SELECT scan_id AS id, MAX(at) AS at FROM sm_observations WHERE scan_id < ?
           GROUP BY scan_id HAVING SUM(state = 'MASTER') = 1 ORDER BY scan_id DESC LIMIT 1`,
        )
        .get(beforeScanId) as { id: number; at: number } | undefined;
      if (!row) return null;
      return { at: row.at, sms: this.previous(row.id + 1) };
    },
    addEvent(e: Omit<SmEventRow, 'id'>, scanId: number | null): void {
      insertEvent.run(e.at, e.kind, e.fromGuid, e.toGuid, e.detail, scanId);
    },
    events(limit: number, since = 0): SmEventRow[] {
      return db
        .prepare(
          'SELECT id, at, kind, from_guid AS fromGuid, to_guid AS toGuid, detail FROM sm_events WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?',
        )
        .all(since, limit) as SmEventRow[];
    },
    /**
     * The node behind an SM GUID. sminfo and the SA name SMs by PORT GUID, which on an HCA
     * differs from the node GUID the name map is keyed by ("smsm_port_guid 0x...a1" vs node ...a0).
     */
    nodeOf(guid: string): { guid: string; description: string } | null {
      return (
        (db
          .prepare(
            'SELECT n.guid, n.description FROM ports p JOIN nodes n ON n.guid = p.node_guid WHERE p.port_guid = ? OR p.node_guid = ? LIMIT 1',
          )
          .get(guid, guid) as { guid: string; description: string } | undefined) ?? null
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
