import type { AsBuiltLink, Guid, LinkSpeed, LinkWidth, NodeType } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

/** A stored as-built link with the names and types of its ends as they were when it was set. */
export interface StoredAsBuiltLink extends AsBuiltLink {
  aName: string | null;
  aType: NodeType | null;
  bName: string | null;
  bType: NodeType | null;
}

interface Row {
  ag: string;
  ap: number;
  an: string | null;
  at: string | null;
  bg: string;
  bp: number;
  bn: string | null;
  bt: string | null;
  width: string | null;
  speed: string | null;
}

/** The as-built cabling (migration 0015): replaced whole by `ibwatch baseline set|import`. */
export function createAsBuiltRepo(db: Db) {
  return {
    /** Replaces the as-built with `links`, recording when and from what. */
    replace(links: readonly StoredAsBuiltLink[], source: string, at: number): void {
      const ins = db.prepare(
        `INSERT OR REPLACE INTO as_built_links (a_guid, a_port, a_name, a_type, b_guid, b_port, b_name, b_type, width,
         speed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      db.transaction(() => {
        db.prepare('DELETE FROM as_built_links').run();
        for (const l of links)
          ins.run(
            l.a.nodeGuid,
            l.a.portNum,
            l.aName,
            l.aType,
            l.b.nodeGuid,
            l.b.portNum,
            l.bName,
            l.bType,
            l.width ?? null,
            l.speed ?? null,
          );
        db.prepare(
          `INSERT INTO as_built_info (id, set_at, source, links) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET
           set_at = excluded.set_at, source = excluded.source, links = excluded.links`,
        ).run(at, source, links.length);
      })();
    },
    links(): StoredAsBuiltLink[] {
      const rows = db
        .prepare(
          `SELECT a_guid AS ag, a_port AS ap, a_name AS an, a_type AS at, b_guid AS bg, b_port AS bp, b_name AS bn,
           b_type AS bt, width, speed FROM as_built_links`,
        )
        .all() as Row[];
      return rows.map((r) => ({
        a: { nodeGuid: r.ag as Guid, portNum: r.ap },
        b: { nodeGuid: r.bg as Guid, portNum: r.bp },
        aName: r.an,
        aType: r.at as NodeType | null,
        bName: r.bn,
        bType: r.bt as NodeType | null,
        width: r.width as LinkWidth | null,
        speed: r.speed as LinkSpeed | null,
      }));
    },
    info(): { setAt: number; source: string; links: number } | null {
      return (
        (db.prepare('SELECT set_at AS setAt, source, links FROM as_built_info WHERE id = 1').get() as
          | { setAt: number; source: string; links: number }
          | undefined) ?? null
      );
    },
  };
}

/** Present links now with their rate (the lower end's width and speed as stored). */
export function presentLinksWithRate(db: Db): AsBuiltLink[] {
  const rows = db
    .prepare(
      `SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp,
         pa.width_active AS width, pa.speed_active AS speed
       FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id WHERE l.present = 1`,
    )
    .all() as { ag: string; ap: number; bg: string; bp: number; width: string | null; speed: string | null }[];
  return rows.map((r) => ({
    a: { nodeGuid: r.ag as Guid, portNum: r.ap },
    b: { nodeGuid: r.bg as Guid, portNum: r.bp },
    width: r.width as LinkWidth | null,
    speed: r.speed as LinkSpeed | null,
  }));
}

/** Node types, descriptions and rails (leaves: their majority rail) as the latest topology scan stored them. */
export function nodeFacts(db: Db): Map<string, { type: NodeType; description: string; rail: number | null }> {
  const rows = db.prepare('SELECT guid, type, description, rail FROM nodes').all() as {
    guid: string;
    type: NodeType;
    description: string;
    rail: number | null;
  }[];
  return new Map(rows.map((r) => [r.guid, { type: r.type, description: r.description, rail: r.rail }]));
}
