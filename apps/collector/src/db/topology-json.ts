import type { Db } from './open-db.ts';
import { lastSeenSql } from './topology-seen.ts';
import type { NameLookup } from './name-lookup.ts';

/**
 * Every link's JSON as if present and ok, back to back, each followed by a comma; `off[i]` is
 * where link i starts (`off[n]`: the end) and `at[i]` where its health's `"ok"` does. A link
 * that is not plain is cut there: head, its own health, the middle, its own reason.
 */
interface LinkBytes {
  shape: string;
  ids: Float64Array;
  base: Buffer;
  off: Float64Array;
  at: Float64Array;
}

const OK = '"ok"';
/** What follows the middle of a plain link in `base`: its reason and the separator. */
const TAIL = 'null},';

/**
 * The `links` array of /api/topology as JSON text: the same objects, in the same key order,
 * as `createFabricQueries().links()` serialised. At 10k GPUs (31k links) building that took
 * ~600 ms of event loop (materialising 16 columns per link, then JSON.stringify), after every
 * sweep that recoloured a link. Now SQLite serialises each link once (json_object) while the
 * topology stays the same, and a recolouring only re-reads the few links that are not plain
 * present-and-ok. At 45k GPUs (136k links, 43 MB) joining 136k strings and encoding them again
 * after every sweep still held the event loop for most of a second: the plain links' bytes are
 * now kept encoded, and a recolouring copies them around the few links it re-cuts. Names and
 * racks follow NameBook: the node-name map's entry, else the description, else the GUID.
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
      `SELECT (SELECT COUNT(*) FROM nodes), (SELECT MAX(${lastSeenSql('x')}) FROM nodes x), (SELECT COUNT(*) FROM
      links), (SELECT MAX(${lastSeenSql('x')}) FROM links x),
            (SELECT TOTAL(LENGTH(tier)) FROM links)`,
    )
    .raw();
  const unusual = db
    .prepare("SELECT id, present, health, reason FROM links WHERE present = 0 OR health != 'ok' OR reason IS NOT NULL")
    .raw();
  const nameMap = names.toJson();
  let cached: LinkBytes | null = null;

  function build(shapeNow: string): LinkBytes {
    const rows = parts.all(nameMap) as { id: number; head: string; mid: string }[];
    const heads = rows.map((r) => `${r.head.slice(0, -1)},"health":`);
    const n = rows.length;
    const ids = new Float64Array(n);
    const off = new Float64Array(n + 1);
    const at = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++)
      total += Buffer.byteLength(heads[i]) + OK.length + Buffer.byteLength(rows[i].mid) + TAIL.length;
    const base = Buffer.allocUnsafe(total);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      ids[i] = rows[i].id;
      off[i] = pos;
      pos += base.write(heads[i], pos);
      at[i] = pos;
      pos += base.write(OK, pos);
      pos += base.write(rows[i].mid, pos);
      pos += base.write(TAIL, pos);
    }
    off[n] = pos;
    return { shape: shapeNow, ids, base, off, at };
  }

  return {
    /**
     * The `links` array as UTF-8 JSON, in pieces to concatenate: the plain links' bytes as kept
     * (views, not copies), the others re-cut.
     */
    linksPieces(): Buffer[] {
      const s = JSON.stringify(shape.get());
      if (cached?.shape !== s) cached = build(s);
      const { ids, base, off, at } = cached;
      const other = new Map((unusual.all() as [number, number, string, string | null][]).map((r) => [r[0], r]));
      const pieces: Buffer[] = [Buffer.from('[')];
      let run = 0;
      for (let i = 0; i < ids.length; i++) {
        const u = other.get(ids[i]);
        if (!u) continue;
        if (run < i) pieces.push(base.subarray(off[run], off[i]));
        run = i + 1;
        // Links gone from the fabric stay on the map while they are down; the others are left out.
        if (u[1] !== 1 && u[2] !== 'down') continue;
        pieces.push(
          base.subarray(off[i], at[i]),
          Buffer.from(JSON.stringify(u[2])),
          base.subarray(at[i] + OK.length, off[i + 1] - TAIL.length),
          Buffer.from(`${JSON.stringify(u[3])}},`),
        );
      }
      if (run < ids.length) pieces.push(base.subarray(off[run], off[ids.length]));
      // Every link ends in a comma: the last one's is dropped.
      const last = pieces.length - 1;
      if (last > 0) pieces[last] = pieces[last].subarray(0, -1);
      pieces.push(Buffer.from(']'));
      return pieces;
    },
    /** `linksPieces()` as text. */
    linksJson(): string {
      return Buffer.concat(this.linksPieces()).toString();
    },
  };
}
