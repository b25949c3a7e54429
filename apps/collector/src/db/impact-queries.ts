/** What the blast radius (analysis/impact.ts) reads of the stored topology. */
import type { Db } from './open-db.ts';

export interface ImpactLinkRow {
  ag: string;
  ap: number;
  bg: string;
  bp: number;
  present: number;
  as: string | null;
  bs: string | null;
  aw: string | null;
  bw: string | null;
  asp: string | null;
  bsp: string | null;
}

/** Every stored link with both ends' state, width and speed, and whether the last scan saw it. */
export function impactLinks(db: Db): ImpactLinkRow[] {
  return db
    .prepare(
      `SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp, l.present,
              pa.state AS "as", pb.state AS bs, pa.width_active AS aw, pb.width_active AS bw,
              pa.speed_active AS asp, pb.speed_active AS bsp
       FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id`,
    )
    .all() as ImpactLinkRow[];
}
