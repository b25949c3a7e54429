import type { FabricLink, FabricNode, FabricPort, Guid } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';

export interface StoredPort {
  id: number;
  nodeGuid: Guid;
  portNum: number;
  lid: number | null;
  state: string | null;
  physState: string | null;
  widthActive: string | null;
  speedActive: string | null;
  remoteGuid: Guid | null;
  remotePort: number | null;
  firstSeen: number;
}

export interface TopologyChanges {
  newNodes: number;
  newPorts: number;
  stateChanges: { portId: number; from: StoredPort; to: FabricPort }[];
  newLinks: number;
  goneLinks: { id: number; aPortId: number; bPortId: number }[];
}

const list = (v: string[] | undefined) => (v && v.length ? v.join(',') : null);

interface PortExtras { portGuid: string | null; we: string | null; ws: string | null; se: string | null; ss: string | null }

/** True when `updatePort` would write back exactly what is stored (its COALESCEs included). */
function sameAsStored(
  row: { portGuid: string | null; lid: number | null; state: string | null; physState: string | null; widthActive: string | null; speedActive: string | null;
    widthEnabled: string | null; widthSupported: string | null; speedEnabled: string | null; speedSupported: string | null; remoteGuid: string | null; remotePort: number | null },
  old: StoredPort, x: PortExtras,
): boolean {
  return (row.portGuid ?? x.portGuid) === x.portGuid && (row.lid ?? old.lid) === old.lid && row.state === old.state && row.physState === old.physState
    && row.widthActive === old.widthActive && row.speedActive === old.speedActive && (row.widthEnabled ?? x.we) === x.we
    && (row.widthSupported ?? x.ws) === x.ws && (row.speedEnabled ?? x.se) === x.se && (row.speedSupported ?? x.ss) === x.ss
    && row.remoteGuid === old.remoteGuid && row.remotePort === old.remotePort;
}

/** Nodes, ports and links with first/last seen, and the history of port state changes. */
export function createTopologyRepo(db: Db) {
  const upsertNode = db.prepare(
    `INSERT INTO nodes (guid, type, description, num_ports, lid, first_seen, last_seen)
     VALUES (@guid, @type, @description, @numPorts, @lid, @at, @at)
     ON CONFLICT (guid) DO UPDATE SET type = excluded.type, description = excluded.description,
       num_ports = excluded.num_ports, lid = COALESCE(excluded.lid, nodes.lid), last_seen = excluded.last_seen`,
  );
  const insertPort = db.prepare(
    `INSERT INTO ports (node_guid, port_num, port_guid, lid, state, phys_state, width_active, speed_active,
       width_enabled, width_supported, speed_enabled, speed_supported, remote_guid, remote_port, first_seen, last_seen)
     VALUES (@nodeGuid, @portNum, @portGuid, @lid, @state, @physState, @widthActive, @speedActive,
       @widthEnabled, @widthSupported, @speedEnabled, @speedSupported, @remoteGuid, @remotePort, @at, @at)`,
  );
  const updatePort = db.prepare(
    `UPDATE ports SET port_guid = COALESCE(@portGuid, port_guid), lid = COALESCE(@lid, lid), state = @state,
       phys_state = @physState, width_active = @widthActive, speed_active = @speedActive,
       width_enabled = COALESCE(@widthEnabled, width_enabled), width_supported = COALESCE(@widthSupported, width_supported),
       speed_enabled = COALESCE(@speedEnabled, speed_enabled), speed_supported = COALESCE(@speedSupported, speed_supported),
       remote_guid = @remoteGuid, remote_port = @remotePort, last_seen = @at WHERE id = @id`,
  );
  const insertHistory = db.prepare(
    'INSERT INTO port_state_history (port_id, at, scan_id, state, phys_state, width, speed) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const upsertLink = db.prepare(
    `INSERT INTO links (a_port_id, b_port_id, present, first_seen, last_seen) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT (a_port_id, b_port_id) DO UPDATE SET present = 1, last_seen = excluded.last_seen
     RETURNING id, first_seen`,
  );

  function loadPorts(): Map<string, StoredPort> {
    const rows = db
      .prepare(
        `SELECT id, node_guid AS nodeGuid, port_num AS portNum, lid, state, phys_state AS physState,
           width_active AS widthActive, speed_active AS speedActive, remote_guid AS remoteGuid,
           remote_port AS remotePort, first_seen AS firstSeen FROM ports`,
      )
      .all() as StoredPort[];
    return new Map(rows.map((p) => [`${p.nodeGuid}:${p.portNum}`, p]));
  }

  // Every write to nodes or ports goes through ingest/setTiers: they bump the topology version,
  // which readers compare instead of scanning 69k ports for a change (see topologyVersion).
  const bump = db.prepare("INSERT INTO change_counters (name, n) VALUES ('topology', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1");
  return {
    loadPorts,
    /**
     * Stores one topology observation. Must run inside the scan's transaction. Ports not in
     * `ports` keep their last state; links not in `links` are marked absent when `complete`.
     */
    ingest(scanId: number, at: number, nodes: FabricNode[], ports: FabricPort[], links: FabricLink[], complete: boolean): TopologyChanges {
      bump.run();
      const changes: TopologyChanges = { newNodes: 0, newPorts: 0, stateChanges: [], newLinks: 0, goneLinks: [] };
      const knownNodes = new Set((db.prepare('SELECT guid FROM nodes').pluck().all() as string[]));
      for (const n of nodes) {
        if (!knownNodes.has(n.guid)) changes.newNodes++;
        upsertNode.run({ guid: n.guid, type: n.type, description: n.description, numPorts: n.numPorts, lid: n.lid ?? null, at });
      }
      const remoteOf = new Map<string, { guid: Guid; port: number }>();
      for (const l of links) {
        remoteOf.set(`${l.a.nodeGuid}:${l.a.portNum}`, { guid: l.b.nodeGuid, port: l.b.portNum });
        remoteOf.set(`${l.b.nodeGuid}:${l.b.portNum}`, { guid: l.a.nodeGuid, port: l.a.portNum });
      }
      const stored = loadPorts();
      const extras = new Map((db.prepare(
        'SELECT id, port_guid AS portGuid, width_enabled AS we, width_supported AS ws, speed_enabled AS se, speed_supported AS ss FROM ports',
      ).all() as (PortExtras & { id: number })[]).map((r) => [r.id, r]));
      const unchanged: number[] = [];
      for (const p of ports) {
        const key = `${p.nodeGuid}:${p.portNum}`;
        const remote = remoteOf.get(key);
        const row = {
          nodeGuid: p.nodeGuid, portNum: p.portNum, portGuid: p.portGuid ?? null, lid: p.lid ?? null,
          state: p.state ?? null, physState: p.physState ?? null, widthActive: p.widthActive ?? null,
          speedActive: p.speedActive ?? null, widthEnabled: list(p.widthEnabled), widthSupported: list(p.widthSupported),
          speedEnabled: list(p.speedEnabled), speedSupported: list(p.speedSupported),
          remoteGuid: remote?.guid ?? null, remotePort: remote?.port ?? null, at,
        };
        const old = stored.get(key);
        if (!old) {
          const id = Number(insertPort.run(row).lastInsertRowid);
          changes.newPorts++;
          insertHistory.run(id, at, scanId, row.state, row.physState, row.widthActive, row.speedActive);
          stored.set(key, { id, nodeGuid: p.nodeGuid, portNum: p.portNum, lid: row.lid, state: row.state, physState: row.physState,
            widthActive: row.widthActive, speedActive: row.speedActive, remoteGuid: row.remoteGuid, remotePort: row.remotePort, firstSeen: at });
          continue;
        }
        const extra = extras.get(old.id);
        // A port exactly as stored only needs its last-seen time (one statement for all of them
        // below): updating all 69k ports of a 10k-GPU fabric was most of a topology scan.
        if (extra && sameAsStored(row, old, extra)) unchanged.push(old.id);
        else updatePort.run({ ...row, id: old.id });
        if (old.state !== row.state || old.physState !== row.physState || old.widthActive !== row.widthActive || old.speedActive !== row.speedActive) {
          insertHistory.run(old.id, at, scanId, row.state, row.physState, row.widthActive, row.speedActive);
          changes.stateChanges.push({ portId: old.id, from: old, to: p });
        }
      }
      if (unchanged.length) db.prepare('UPDATE ports SET last_seen = ? WHERE id IN (SELECT value FROM json_each(?))').run(at, JSON.stringify(unchanged));
      const seen = new Set<number>();
      for (const l of links) {
        const a = stored.get(`${l.a.nodeGuid}:${l.a.portNum}`);
        const b = stored.get(`${l.b.nodeGuid}:${l.b.portNum}`);
        if (!a || !b) continue;
        const [x, y] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
        const r = upsertLink.get(x, y, at, at) as { id: number; first_seen: number };
        if (r.first_seen === at) changes.newLinks++;
        seen.add(r.id);
      }
      if (complete) {
        const present = db.prepare('SELECT id, a_port_id AS aPortId, b_port_id AS bPortId FROM links WHERE present = 1').all() as TopologyChanges['goneLinks'];
        const markGone = db.prepare('UPDATE links SET present = 0 WHERE id = ?');
        for (const l of present) {
          if (seen.has(l.id)) continue;
          markGone.run(l.id);
          changes.goneLinks.push(l);
        }
      }
      return changes;
    },
    setTiers(tiers: { guid: Guid; tier: string | null; rail: number | null }[]): void {
      bump.run();
      const st = db.prepare('UPDATE nodes SET tier = ?, rail = ? WHERE guid = ?');
      const now = new Map((db.prepare('SELECT guid, tier, rail FROM nodes').all() as { guid: string; tier: string | null; rail: number | null }[]).map((n) => [n.guid, n]));
      for (const t of tiers) {
        const have = now.get(t.guid);
        if (!have || have.tier !== t.tier || have.rail !== t.rail) st.run(t.tier, t.rail, t.guid);
      }
    },
    setLinkHealth(rows: { id: number; tier: string | null; health: string; reason: string | null }[]): void {
      const st = db.prepare('UPDATE links SET tier = ?, health = ?, reason = ? WHERE id = ?');
      for (const r of rows) st.run(r.tier, r.health, r.reason, r.id);
    },
  };
}
export type TopologyRepo = ReturnType<typeof createTopologyRepo>;

/** Moves whenever nodes or ports were written (in the same transaction as the write). */
export function topologyVersion(db: Db): number {
  return (db.prepare("SELECT n FROM change_counters WHERE name = 'topology'").pluck().get() as number | undefined) ?? 0;
}
