/** What the early-warning watch list (analysis/watch.ts) reads: sweeps, error deltas, ports, findings. */
import type { Db } from './open-db.ts';
import { lastSeenSql } from './topology-seen.ts';

/** Scans that store counter deltas (PM sweeps, ibdiagnet runs and imports) that ended after `from`. */
export function sweepsSince(db: Db, from: number): { id: number; at: number }[] {
  return db
    .prepare(
      `SELECT id, finished_at AS at FROM scans WHERE kind IN ('pm', 'ibdiagnet', 'import-ibdiagnet')
       AND status IN ('ok', 'partial') AND finished_at >= ? ORDER BY finished_at`,
    )
    .all(from) as { id: number; at: number }[];
}

/** Non-zero deltas of `counters` stored since `from`, with the scan that stored them. */
export function errorDeltasSince(
  db: Db,
  from: number,
  counters: readonly string[],
): { portId: number; counter: string; scanId: number; delta: number }[] {
  return db
    .prepare(
      `SELECT d.port_id AS portId, n.name AS counter, d.scan_id AS scanId, d.delta FROM counter_deltas d
       JOIN counter_names n ON n.id = d.counter_id
       WHERE d.at >= ? AND n.name IN (SELECT value FROM json_each(?))`,
    )
    .all(from, JSON.stringify(counters)) as { portId: number; counter: string; scanId: number; delta: number }[];
}

/** A watched port as the watch list shows it. */
export interface WatchedPort {
  g: string;
  n: number;
  desc: string | null;
  width: string | null;
  speed: string | null;
  rg: string | null;
  rn: number | null;
  rdesc: string | null;
}

/**
 * A port's GUID, number, node description and active width and speed, and its link's far end
 * when the topology knows one.
 */
export function portWithPeer(db: Db, portId: number): WatchedPort | undefined {
  return db
    .prepare(
      `SELECT p.node_guid AS g, p.port_num AS n, nd.description AS desc, p.width_active AS width,
         p.speed_active AS speed, q.node_guid AS rg, q.port_num AS rn, rd.description AS rdesc
       FROM ports p LEFT JOIN nodes nd ON nd.guid = p.node_guid
       LEFT JOIN links l ON l.a_port_id = p.id OR l.b_port_id = p.id
       LEFT JOIN ports q ON q.id = CASE WHEN l.a_port_id = p.id THEN l.b_port_id ELSE l.a_port_id END
       LEFT JOIN nodes rd ON rd.guid = q.node_guid
       WHERE p.id = ? ORDER BY l.present DESC, ${lastSeenSql('l')} DESC LIMIT 1`,
    )
    .get(portId) as WatchedPort | undefined;
}

/** Severity of the open or acknowledged finding of `kind` on the port subject `subjectKey`, if any. */
export function activeFindingSeverity(db: Db, kind: string, subjectKey: string): string | undefined {
  return db
    .prepare(
      `SELECT severity FROM findings WHERE kind = ? AND subject_key = ? AND state IN ('open', 'acknowledged')
       ORDER BY last_seen DESC LIMIT 1`,
    )
    .pluck()
    .get(kind, subjectKey) as string | undefined;
}
