import type { Db } from './open-db.ts';
import type { NameLookup } from './name-lookup.ts';

/** One link's JSON around its health and reason: `head + health + mid + reason + '}'`. */
interface LinkParts {
  id: number;
  head: string;
  mid: string;
}

/**
 * The `links` array of /api/topology as JSON text: the same objects, in the same key order,
 * as `createFabricQueries().links()` serialised. At 10k GPUs (31k links) building that took
 * ~600 ms of event loop (materialising 16 columns per link, then JSON.stringify), after every
 * sweep that recoloured a link. Now SQLite serialises each link once (json_object) while the
 * topology stays the same, and a recolouring only re-reads the few links that are not plain
 * present-and-ok. Names and racks follow NameBook: the node-name map's entry, else the
 * description, else the GUID.
 */
export function createTopologyJson(db: Db, names: NameLookup) {
  const parts = db.prepare(
    `WITH nm(guid, name, rack) AS MATERIALIZED (SELECT key, value ->> 0, value ->> 1 FROM json_each(?))
     SELECT l.id, json_object('id', l.id,
       'a', json_object('guid', pa.node_guid, 'name', COALESCE(ma.name, NULLIF(na.description, ''),
       pa.node_guid), 'port', pa.port_num, 'lid', pa.lid, 'rack', ma.rack),
       'b', json_object('guid', pb.node_guid, 'name', COALESCE(mb.name, NULLIF(nb.description, ''),
       pb.node_guid), 'port', pb.port_num, 'lid', pb.lid, 'rack', mb.rack),
       'tier', COALESCE(l.tier, 'other')) AS head,
       ',"widthActive":' || json_quote(pa.width_active) || ',"speedActive":' || json_quote(pa.speed_active) ||
       ',"reason":' AS mid
     FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id
     JOIN nodes na ON na.guid = pa.node_guid JOIN nodes nb ON nb.guid = pb.node_guid
     LEFT JOIN nm ma ON ma.guid = pa.node_guid LEFT JOIN nm mb ON mb.guid = pb.node_guid
     ORDER BY l.id`,
  );
  // Everything the parts show moves one of these: a topology ingest moves the nodes' and the
  // links' last_seen (ports, LIDs, rates and tiers change only there).
  const shape = db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM nodes), (SELECT MAX(last_seen) FROM nodes), (SELECT COUNT(*) FROM links),
      (SELECT MAX(last_seen) FROM links),
            (SELECT TOTAL(LENGTH(tier)) FROM links)`,
    )
    .raw();
  const unusual = db
    .prepare("SELECT id, present, health, reason FROM links WHERE present = 0 OR health != 'ok' OR reason IS NOT NULL")
    .raw();
  const nameMap = names.toJson();
  let cached: { shape: string; links: LinkParts[] } | null = null;

  return {
    linksJson(): string {
      const s = JSON.stringify(shape.get());
      if (cached?.shape !== s) {
        const links = (parts.all(nameMap) as { id: number; head: string; mid: string }[]).map((r) => ({
          id: r.id,
          head: `${r.head.slice(0, -1)},"health":`,
          mid: r.mid,
        }));
        cached = { shape: s, links };
      }
      const other = new Map((unusual.all() as [number, number, string, string | null][]).map((r) => [r[0], r]));
      const out: string[] = [];
      for (const l of cached.links) {
        const u = other.get(l.id);
        if (!u) out.push(`${l.head}"ok"${l.mid}null}`);
        // Links gone from the fabric stay on the map while they are down.
        else if (u[1] === 1 || u[2] === 'down')
          out.push(`${l.head}${JSON.stringify(u[2])}${l.mid}${JSON.stringify(u[3])}}`);
      }
      return `[${out.join(',')}]`;
    },
  };
}
