import {
  type FabricSummary,
  hcaHost,
  type LinkEnd,
  type PortRow,
  type TopoLink,
  type TopoNode,
  type Tier,
} from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { topologyVersion } from './topology-counters.ts';
import { lastSeenSql } from './topology-seen.ts';
import type { NameLookup } from './name-lookup.ts';

/**
 * SQL condition: finding `f` is about the port whose `guid/num` key is `key` (an SQL expression).
 * Subject keys are `port:<guid>/<n>` and `link:<guid>/<n>~<guid>/<n>`; matching whole keys keeps
 * port 3 from picking up the findings of ports 30-39.
 */
export const SUBJECT_IS_PORT = (key: string) =>
  `(f.subject_key = 'port:' || ${key} OR f.subject_key LIKE 'link:' || ${key} || '~%' OR f.subject_key LIKE ` +
  `'link:%~' || ${key})`;

/** SQL condition: the port whose id is `id` has been an end of a link (links are kept with present = 0). */
const EVER_LINKED = (id: string) =>
  `(EXISTS (SELECT 1 FROM links l WHERE l.a_port_id = ${id})
    OR EXISTS (SELECT 1 FROM links l WHERE l.b_port_id = ${id}))`;

/** Read-side queries behind the topology, ports and summary routes. */
export function createFabricQueries(db: Db, names: NameLookup) {
  const end = (guid: string, desc: string | null, port: number, lid: number | null): LinkEnd => ({
    guid,
    name: names.name(guid, desc),
    port,
    lid,
    rack: names.rack(guid),
  });

  // The other end of the port's most recently seen link: links stay stored with present = 0
  // after a scan stops seeing them, while the port itself forgets its remote end.
  const lastLink = db.prepare(
    `SELECT op.node_guid AS guid, op.port_num AS port, op.lid, n.description,
       ${lastSeenSql('l')} AS lastSeen FROM links l
     JOIN ports op ON op.id = CASE WHEN l.a_port_id = @id THEN l.b_port_id ELSE l.a_port_id END
     JOIN nodes n ON n.guid = op.node_guid
     WHERE l.a_port_id = @id OR l.b_port_id = @id ORDER BY lastSeen DESC LIMIT 1`,
  );
  const everLinked = db.prepare(`SELECT ${EVER_LINKED('@id')}`).pluck();
  const latestSeen = () =>
    (db
      .prepare(`SELECT MAX(${lastSeenSql('p')}) FROM ports p`)
      .pluck()
      .get() as number | null) ?? 0;
  const lastRemote = (id: number): PortRow['lastRemote'] => {
    const r = lastLink.get({ id }) as
      | { guid: string; port: number; lid: number | null; description: string; lastSeen: number }
      | undefined;
    return r ? { ...end(r.guid, r.description, r.port, r.lid), lastSeen: r.lastSeen } : null;
  };

  return {
    /**
     * Every node by GUID; or, with `slice`, the first `limit` nodes past GUID `after` (null: from
     * the first), so that a long read can be cut into slices that give the same nodes in order.
     */
    nodes(slice?: { after: string | null; limit: number }): TopoNode[] {
      const sql = 'SELECT guid, type, description, tier, rail, lid FROM nodes';
      const st = !slice
        ? db.prepare(`${sql} ORDER BY guid`)
        : slice.after === null
          ? db.prepare(`${sql} ORDER BY guid LIMIT ?`).bind(slice.limit)
          : db.prepare(`${sql} WHERE guid > ? ORDER BY guid LIMIT ?`).bind(slice.after, slice.limit);
      const rows = st.all() as {
        guid: string;
        type: 'switch' | 'ca' | 'router';
        description: string;
        tier: string | null;
        rail: number | null;
        lid: number | null;
      }[];
      return rows.map((r) => ({
        guid: r.guid,
        name: names.name(r.guid, r.description),
        type: r.type,
        tier: (r.tier ?? (r.type === 'ca' ? 'hca' : 'leaf')) as Tier,
        rail: r.rail,
        rack: names.rack(r.guid),
        lid: r.lid,
        host: r.type === 'ca' ? hcaHost(r.description) : null,
      }));
    },
    /** Links shown on the topology (present, or gone while down); `where` narrows them (fixed SQL only). */
    links(where = "l.present = 1 OR l.health = 'down'"): TopoLink[] {
      const rows = db
        .prepare(
          `SELECT l.id, l.tier, l.health, l.reason, pa.node_guid AS ag, pa.port_num AS ap, pa.lid AS al,
          na.description AS ad,
                  pb.node_guid AS bg, pb.port_num AS bp, pb.lid AS bl, nb.description AS bd,
                  pa.width_active AS w, pa.speed_active AS s, pa.state AS ast, pb.state AS bst
           FROM links l JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id
           JOIN nodes na ON na.guid = pa.node_guid JOIN nodes nb ON nb.guid = pb.node_guid
           WHERE ${where} ORDER BY l.id`,
        )
        .all() as {
        id: number;
        tier: string | null;
        health: string;
        reason: string | null;
        ag: string;
        ap: number;
        al: number | null;
        ad: string;
        bg: string;
        bp: number;
        bl: number | null;
        bd: string;
        w: string | null;
        s: string | null;
      }[];
      return rows.map((r) => ({
        id: r.id,
        a: end(r.ag, r.ad, r.ap, r.al),
        b: end(r.bg, r.bd, r.bp, r.bl),
        tier: (r.tier ?? 'other') as TopoLink['tier'],
        health: r.health as TopoLink['health'],
        widthActive: r.w as TopoLink['widthActive'],
        speedActive: r.s as TopoLink['speedActive'],
        reason: r.reason,
      }));
    },
    /** Links shown with a health other than ok (as on the topology), both ends named. */
    unhealthyLinks(): TopoLink[] {
      return this.links("l.health != 'ok' AND (l.present = 1 OR l.health = 'down')");
    },
    /**
     * Changes whenever what /api/topology shows of the nodes changes: nodes, ports, tiers and
     * rails are written only by a topology ingest, which bumps the topology version.
     */
    nodesStamp(): string {
      return String(topologyVersion(db));
    },
    /**
     * Changes whenever links appear or go, or any link's health or reason changes. The few
     * coloured links are listed whole, so a reason that changes but keeps its length
     * ("3 symbol errors" -> "5 symbol errors") still moves it.
     */
    linksStamp(): string {
      return JSON.stringify(
        db
          .prepare(
            `SELECT l.c, l.ls, l.p, (SELECT group_concat(id || ' ' || health || ' ' || COALESCE(reason, ''),
            char(10)) FROM links
                WHERE health != 'ok' OR reason IS NOT NULL) AS h FROM (SELECT COUNT(*) AS c, MAX(${lastSeenSql('x')}) AS
                ls, SUM(present) AS p FROM links x) l`,
          )
          .raw()
          .get(),
      );
    },
    /**
     * Kind and subject of every finding the latest scan of its kind observed, info ones (grace
     * period) left out: what is over a threshold now (no JSON columns to parse).
     */
    currentFindingSubjects(): { kind: string; subjectType: string; subjectKey: string }[] {
      return db
        .prepare(
          `SELECT kind, subject_type AS subjectType, subject_key AS subjectKey FROM findings
           WHERE cleared_at IS NULL AND severity != 'info'`,
        )
        .all() as { kind: string; subjectType: string; subjectKey: string }[];
    },
    /**
     * A real switch (a leaf when tiers are known), host and rack of this fabric for the views'
     * search placeholders; null where the fabric has none. Rows in primary-key order, first hit.
     */
    exampleNames(): FabricSummary['exampleNames'] {
      const first = (where: string) =>
        db.prepare(`SELECT guid, description FROM nodes WHERE ${where} LIMIT 1`).get() as
          | { guid: string; description: string }
          | undefined;
      const sw = first("type = 'switch' AND tier = 'leaf'") ?? first("type = 'switch'");
      const ca = first("type = 'ca' AND tier IS NOT 'aggregation'");
      const caName = ca ? names.name(ca.guid, ca.description) : null;
      return {
        switch: sw ? names.name(sw.guid, sw.description) : null,
        host: caName === null ? null : (hcaHost(caName) ?? caName),
        rack: (sw && names.rack(sw.guid)) ?? (ca && names.rack(ca.guid)) ?? null,
      };
    },
    counts(): Pick<
      FabricSummary,
      'switches' | 'hcas' | 'aggregationNodes' | 'ports' | 'activePorts' | 'links' | 'degradedLinks' | 'downLinks'
    > {
      // A SHARP Aggregation Node is a CA inside a switch, not an HCA: the real NDR run has 256
      // HCAs and 7 of them ("IB Channel Adapters : 256", "IB Aggregation Nodes : 7").
      const n = db
        .prepare(
          `SELECT SUM(type = 'switch') AS switches, SUM(type = 'ca' AND tier IS NOT 'aggregation') AS hcas,
                  SUM(tier = 'aggregation') AS ans FROM nodes`,
        )
        .get() as { switches: number | null; hcas: number | null; ans: number | null };
      const p = db
        .prepare("SELECT COUNT(*) AS ports, SUM(state = 'Active') AS active FROM ports WHERE port_num > 0")
        .get() as { ports: number; active: number | null };
      const l = db
        .prepare(
          "SELECT SUM(present = 1) AS links, SUM(health = 'degraded' AND present = 1) AS degraded, SUM(health " +
            "= 'down') AS down FROM links",
        )
        .get() as { links: number | null; degraded: number | null; down: number | null };
      return {
        switches: n.switches ?? 0,
        hcas: n.hcas ?? 0,
        aggregationNodes: n.ans ?? 0,
        ports: p.ports,
        activePorts: p.active ?? 0,
        links: l.links ?? 0,
        degradedLinks: l.degraded ?? 0,
        downLinks: l.down ?? 0,
      };
    },
    /** Health and reason of the link a port is an end of (the present one first), null when it has none. */
    linkHealthAt(guid: string, port: number): { health: TopoLink['health']; reason: string | null } | null {
      return (
        (db
          .prepare(
            `SELECT l.health, l.reason FROM ports p JOIN links l ON l.a_port_id = p.id OR l.b_port_id = p.id
             WHERE p.node_guid = ? AND p.port_num = ? ORDER BY l.present DESC, l.id DESC LIMIT 1`,
          )
          .get(guid, port) as { health: TopoLink['health']; reason: string | null } | undefined) ?? null
      );
    },
    portId(guid: string, port: number): number | null {
      return (
        (db.prepare('SELECT id FROM ports WHERE node_guid = ? AND port_num = ?').pluck().get(guid, port) as
          | number
          | undefined) ?? null
      );
    },
    /** When a topology scan first saw the port. */
    portFirstSeen(portId: number): number | null {
      return (
        (db.prepare('SELECT first_seen FROM ports WHERE id = ?').pluck().get(portId) as number | undefined) ?? null
      );
    },
    ports(q: { q?: string; state?: string; sort: string; limit: number; offset: number }): {
      total: number;
      items: PortRow[];
    } {
      const where: string[] = ['p.port_num > 0'];
      const args: Record<string, unknown> = { limit: q.limit, offset: q.offset };
      // Down means a link that went down; a port never cabled is Down/Polling too, and on a
      // switch with spare ports those would bury the few links that matter: they are Unused.
      if (q.state === 'Unused') where.push(`p.state != 'Active' AND NOT ${EVER_LINKED('p.id')}`);
      else if (q.state === 'Down') where.push(`p.state = 'Down' AND ${EVER_LINKED('p.id')}`);
      else if (q.state) {
        where.push('p.state = @state');
        args.state = q.state;
      }
      // A switch's LID lives on its port 0; ibdiagnet reports its external ports with LID 0.
      if (q.q) {
        where.push(
          '(n.description LIKE @like OR p.node_guid LIKE @like OR CAST(p.lid AS TEXT) = @q OR (n.type = ' +
            "'switch' AND CAST(n.lid AS TEXT) = @q))",
        );
        args.like = `%${q.q}%`;
        args.q = q.q;
      }
      // `-name` sorts descending; the column list is fixed here, never taken from the request.
      const desc = q.sort.startsWith('-');
      const key = desc ? q.sort.slice(1) : q.sort;
      const cols = (
        {
          name: ['n.description', 'p.port_num'],
          lid: ['p.lid'],
          state: ['p.state', 'n.description'],
          findings: ['open_findings', 'n.description'],
          lastSeen: ['seen_at'],
        } as Record<string, string[]>
      )[key] ?? ['n.description', 'p.port_num'];
      const dir = desc ? 'DESC' : 'ASC';
      const order = cols.map((c) => `${c} ${dir}`).join(', ');
      const sqlWhere = where.join(' AND ');
      const total = db
        .prepare(`SELECT COUNT(*) FROM ports p JOIN nodes n ON n.guid = p.node_guid WHERE ${sqlWhere}`)
        .pluck()
        .get(args) as number;
      const rows = db
        .prepare(
          `SELECT p.*, ${lastSeenSql('p')} AS seen_at, n.description, rn.description AS remote_desc,
             rp.lid AS remote_lid, (SELECT COUNT(*) FROM findings f WHERE f.state != 'resolved' AND
             ${SUBJECT_IS_PORT("p.node_guid || '/' || p.port_num")}) AS open_findings
           FROM ports p JOIN nodes n ON n.guid = p.node_guid
           LEFT JOIN nodes rn ON rn.guid = p.remote_guid LEFT JOIN ports rp ON rp.node_guid = p.remote_guid
           AND rp.port_num = p.remote_port
           WHERE ${sqlWhere} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        )
        .all(args) as PortDbRow[];
      const latest = latestSeen();
      return { total, items: rows.map((r) => this.toPortRow(r, latest)) };
    },
    portRow(guid: string, port: number): (PortRow & { raw: PortDbRow }) | null {
      const r = db
        .prepare(
          `SELECT p.*, ${lastSeenSql('p')} AS seen_at, n.description, rn.description AS remote_desc,
             rp.lid AS remote_lid, 0 AS open_findings
           FROM ports p JOIN nodes n ON n.guid = p.node_guid
           LEFT JOIN nodes rn ON rn.guid = p.remote_guid LEFT JOIN ports rp ON rp.node_guid = p.remote_guid
           AND rp.port_num = p.remote_port
           WHERE p.node_guid = ? AND p.port_num = ?`,
        )
        .get(guid, port) as PortDbRow | undefined;
      return r ? { ...this.toPortRow(r, latestSeen()), raw: r } : null;
    },
    /**
     * The API row of a stored port. `latest` is the newest last-seen time of any port: every
     * topology scan sees again each port it lists, so a port behind it was not in the
     * latest scan (stale). Worked out for the rows of a page only, not in the query that sorts
     * all 69k ports.
     */
    toPortRow(r: PortDbRow, latest: number): PortRow {
      const unused = !r.remote_guid && !everLinked.get({ id: r.id });
      return {
        guid: r.node_guid,
        port: r.port_num,
        name: names.name(r.node_guid, r.description),
        lid: r.lid,
        state: r.state as PortRow['state'],
        physState: r.phys_state as PortRow['physState'],
        widthActive: r.width_active as PortRow['widthActive'],
        speedActive: r.speed_active as PortRow['speedActive'],
        remote: r.remote_guid ? end(r.remote_guid, r.remote_desc, r.remote_port!, r.remote_lid) : null,
        openFindings: r.open_findings,
        lastSeen: r.seen_at,
        stale: r.seen_at < latest,
        unused,
        lastRemote: r.remote_guid || unused ? null : lastRemote(r.id),
      };
    },
    stateHistory(
      portId: number,
      from: number,
    ): {
      at: number;
      state: string | null;
      physState: string | null;
      widthActive: string | null;
      speedActive: string | null;
    }[] {
      return db
        .prepare(
          'SELECT at, state, phys_state AS physState, width AS widthActive, speed AS speedActive FROM ' +
            'port_state_history WHERE port_id = ? AND at >= ? ORDER BY at',
        )
        .all(portId, from) as {
        at: number;
        state: string | null;
        physState: string | null;
        widthActive: string | null;
        speedActive: string | null;
      }[];
    },
  };
}

export interface PortDbRow {
  id: number;
  node_guid: string;
  port_num: number;
  port_guid: string | null;
  lid: number | null;
  state: string | null;
  phys_state: string | null;
  width_active: string | null;
  speed_active: string | null;
  width_enabled: string | null;
  width_supported: string | null;
  speed_enabled: string | null;
  speed_supported: string | null;
  remote_guid: string | null;
  remote_port: number | null;
  first_seen: number;
  /** As stored: out of date while the latest scan saw the port (seen_latest = 1); see `seen_at`. */
  last_seen: number;
  seen_latest: number;
  /** When a topology scan last saw the port (topology-seen.ts). */
  seen_at: number;
  description: string;
  remote_desc: string | null;
  remote_lid: number | null;
  open_findings: number;
}
export type FabricQueries = ReturnType<typeof createFabricQueries>;
