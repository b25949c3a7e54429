/** What the reseat worklist (analysis/worklist.ts) reads besides the findings repository. */
import type { Db } from './open-db.ts';
import { lastSeenSql } from './topology-seen.ts';

/**
 * Every stored link's ends with their LIDs, and what its blast radius needs (analysis/impact.ts):
 * whether the last scan saw it, both ends' state, width and speed. One walk of the 31k links at
 * 10k GPUs for both.
 */
export interface WorklistLinkRow {
  ag: string;
  ap: number;
  al: number | null;
  bg: string;
  bp: number;
  bl: number | null;
  present: number;
  as: string | null;
  bs: string | null;
  aw: string | null;
  bw: string | null;
  asp: string | null;
  bsp: string | null;
}

export function worklistLinks(db: Db): WorklistLinkRow[] {
  return db
    .prepare(
      `SELECT pa.node_guid AS ag, pa.port_num AS ap, pa.lid AS al, pb.node_guid AS bg, pb.port_num AS bp, pb.lid AS bl,
              l.present, pa.state AS "as", pb.state AS bs, pa.width_active AS aw, pb.width_active AS bw,
              pa.speed_active AS asp, pb.speed_active AS bsp
       FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id`,
    )
    .all() as WorklistLinkRow[];
}

export function worklistNodes(db: Db): { guid: string; description: string; type: string; tier: string | null }[] {
  return db.prepare('SELECT guid, description, type, tier FROM nodes').all() as {
    guid: string;
    description: string;
    type: string;
    tier: string | null;
  }[];
}

/** Cables by port, `info` as stored (JSON text). */
export function worklistCables(db: Db): { nodeGuid: string; portNum: number; info: string }[] {
  return db.prepare('SELECT node_guid AS nodeGuid, port_num AS portNum, info FROM cables').all() as {
    nodeGuid: string;
    portNum: number;
    info: string;
  }[];
}

/** Subjects (JSON text) of link findings resolved before `before`: the link's prior fixes. */
export function linkFixesBefore(db: Db, before: number): string[] {
  return db
    .prepare("SELECT subject FROM findings WHERE state = 'resolved' AND subject_type = 'link' AND resolved_at < ?")
    .pluck()
    .all(before) as string[];
}

/** The first link fix at or after `since`, if any. */
export function firstLinkFixSince(db: Db, since: number): number | null {
  return db
    .prepare(
      "SELECT MIN(resolved_at) FROM findings WHERE state = 'resolved' AND subject_type = 'link' AND resolved_at >= ?",
    )
    .pluck()
    .get(since) as number | null;
}

/**
 * A stamp of everything a finding contributes to the worklist (state, severity, title, short,
 * times): touches move last_seen, acks set acknowledged_at, resolves resolved_at, clearing sets
 * cleared_at (and adds one to the cleared count).
 */
export function findingsStamp(db: Db): string {
  return JSON.stringify(
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM findings) AS fc, (SELECT MAX(id) FROM findings) AS fi,
              (SELECT MAX(last_seen) FROM findings) AS fl,
              (SELECT MAX(resolved_at) FROM findings) AS fr, (SELECT MAX(acknowledged_at) FROM findings) AS fa,
              (SELECT SUM(state = 'open') FROM findings) AS fo,
              (SELECT MAX(cleared_at) FROM findings) AS fx, (SELECT COUNT(*) FROM findings WHERE cleared_at IS
              NULL) AS fn`,
      )
      .raw()
      .get(),
  );
}

/** A stamp of the links, ports, nodes and cables the worklist's fabric side is built from. */
export function worklistFabricStamp(db: Db): string {
  return JSON.stringify(
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM links) AS lc, (SELECT MAX(id) FROM links) AS li,
              (SELECT MAX(${lastSeenSql('x')}) FROM links x) AS ll,
              (SELECT COUNT(*) FROM ports) AS pc, (SELECT MAX(id) FROM ports) AS pi,
              (SELECT MAX(${lastSeenSql('x')}) FROM ports x) AS pl,
              (SELECT COUNT(*) FROM nodes) AS nc, (SELECT MAX(${lastSeenSql('x')}) FROM nodes x) AS nl,
              (SELECT COUNT(*) FROM cables) AS cc, (SELECT MAX(updated_at) FROM cables) AS cu`,
      )
      .raw()
      .get(),
  );
}

/**
 * Port and link findings resolved at or after `since` (fixes that may have failed): kind,
 * subject JSON, when first seen and when resolved.
 */
export function portAndLinkFixesSince(
  db: Db,
  since: number,
): { kind: string; subjectType: string; subject: string; firstSeen: number; resolvedAt: number }[] {
  return db
    .prepare(
      `SELECT kind, subject_type AS subjectType, subject, first_seen AS firstSeen, resolved_at AS resolvedAt
       FROM findings WHERE state = 'resolved' AND subject_type IN ('port', 'link') AND resolved_at >= ?`,
    )
    .all(since) as { kind: string; subjectType: string; subject: string; firstSeen: number; resolvedAt: number }[];
}
