import { topologyColumnsOf, type LinkHealth, type TopoLink, type TopoLinkRow } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { lastSeenSql } from './topology-seen.ts';
import type { NameLookup } from './name-lookup.ts';
import { createFabricQueries } from './fabric-queries.ts';
import { topologyVersion } from './topology-repo.ts';

/** The reply in two parts: what only a topology ingest changes, and what a sweep does. */
export interface TopologyParts {
  /** `{"format":2,"vocab":…,"nodes":…,"links":…,"endLids":…,` as UTF-8: kept while the topology stays. */
  head: Buffer;
  /** `"generatedAt":…,"problems":[…]}`: built for every reply. */
  tail: Buffer;
}

interface Structure {
  shape: string;
  head: Buffer;
  /** Link id → index in the reply's link columns. */
  indexOf: Map<number, number>;
}

/**
 * The body of GET /api/topology (format 2: columns, see packages/fabric/src/api/topology.ts).
 * At 45k GPUs (49k nodes, 136k links) the columns are ~8 MB; building them takes most of a
 * second, so they are built once per topology (`head`, sent first so its gzip and CRC can be
 * kept, see routes/gzip-tail.ts), and a sweep that recolours links only re-lists the few links
 * whose health is not ok (`tail`). Names and racks follow NameBook: the node-name map's entry,
 * else the description, else the GUID.
 */
export function createTopologyJson(db: Db, names: NameLookup) {
  const q = createFabricQueries(db, names);
  // Every link as the reply shows it when ok; links gone from the fabric stay on the map while down.
  const rows = db
    .prepare(
      `SELECT l.id, pa.node_guid, pa.port_num, pa.lid, pb.node_guid, pb.port_num, pb.lid,
       COALESCE(l.tier, 'other'), pa.width_active, pa.speed_active
       FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id
       JOIN nodes na ON na.guid = pa.node_guid JOIN nodes nb ON nb.guid = pb.node_guid
       WHERE l.present = 1 OR l.health = 'down' ORDER BY l.id`,
    )
    .raw();
  // Everything the head shows moves one of these: a topology ingest moves the topology version
  // and the nodes' and links' last_seen (ports, LIDs, rates and tiers change only there).
  const shape = db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM nodes), (SELECT MAX(${lastSeenSql('x')}) FROM nodes x), (SELECT COUNT(*) FROM
       links), (SELECT MAX(${lastSeenSql('x')}) FROM links x), (SELECT SUM(present) FROM links),
       (SELECT TOTAL(LENGTH(tier)) FROM links)`,
    )
    .raw();
  const unusual = db
    .prepare("SELECT id, present, health, reason FROM links WHERE present = 0 OR health != 'ok' OR reason IS NOT NULL")
    .raw();
  let cached: Structure | null = null;

  function build(shapeNow: string): Structure {
    const links: TopoLinkRow[] = (rows.all() as unknown[][]).map((r) => ({
      id: r[0] as number,
      a: r[1] as string,
      aPort: r[2] as number,
      aLid: r[3] as number | null,
      b: r[4] as string,
      bPort: r[5] as number,
      bLid: r[6] as number | null,
      tier: r[7] as TopoLink['tier'],
      width: r[8] as TopoLink['widthActive'],
      speed: r[9] as TopoLink['speedActive'],
      health: 'ok',
      reason: null,
    }));
    const { format, vocab, nodes, links: columns, endLids } = topologyColumnsOf(0, q.nodes(), links);
    const json = JSON.stringify({ format, vocab, nodes, links: columns, endLids });
    const indexOf = new Map<number, number>(columns.id.map((id, i) => [id, i]));
    return { shape: shapeNow, head: Buffer.from(`${json.slice(0, -1)},`), indexOf };
  }

  /**
   * The problems list, or null when a link came or went since `s` was built (rebuild it; a
   * rebuilt structure lists every link it can: `strict` off, the rest are left out as before).
   */
  function problems(s: Structure, strict: boolean): [number, LinkHealth, string | null][] | null {
    const out: [number, LinkHealth, string | null][] = [];
    for (const [id, present, health, reason] of unusual.all() as [number, number, LinkHealth, string | null][]) {
      const i = s.indexOf.get(id);
      const shown = present === 1 || health === 'down';
      if (strict && shown !== (i !== undefined)) return null;
      if (i !== undefined && (health !== 'ok' || reason !== null)) out.push([i, health, reason]);
    }
    return out.sort((x, y) => x[0] - y[0]);
  }

  return {
    parts(generatedAt: number): TopologyParts {
      const s = `${topologyVersion(db)}|${JSON.stringify(shape.get())}`;
      if (cached?.shape !== s) cached = build(s);
      let p = problems(cached, true);
      if (!p) {
        cached = build(s);
        p = problems(cached, false)!;
      }
      return { head: cached.head, tail: Buffer.from(`"generatedAt":${generatedAt},"problems":${JSON.stringify(p)}}`) };
    },
    /** The whole reply as text. */
    json(generatedAt: number): string {
      const { head, tail } = this.parts(generatedAt);
      return Buffer.concat([head, tail]).toString();
    },
  };
}
