import { PortIndex, type FabricLink, type FabricNode, type FabricPort, type Guid, type PortRef } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { BatchInsert, createIndexes, dropIndexesIfEmpty } from './batch-insert.ts';
import { ingestLinks, type LinkTierOf } from './link-ingest.ts';
import type { SweepPortRow } from './graph-queries.ts';
import { ingestNodes } from './node-ingest.ts';
import { BUMP_TOPOLOGY_SQL } from './topology-counters.ts';
import { inputFingerprint, latestSeen, setLatestSeen, shapeOf, stopSeeing, unchangedSince } from './topology-seen.ts';

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
  /** Row ids of the stored links the scan listed. */
  seenLinks: Set<number>;
  /** True when a node, port or link row was written (false: the stored topology is as it was). */
  wrote: boolean;
  /**
   * When the ports table was empty before this scan: every stored port now, in id order, as a
   * PM sweep reads them (`iterateSweepPorts`), from what ingest wrote instead of read back.
   */
  firstPorts?: SweepPortRow[];
  /** True when every stored link was inserted by this scan with its tier (see `ingestLinks`). */
  linksTiered: boolean;
  /** The scan's ports by GUID and number, when ingest compared them and none is listed twice. */
  listedPorts?: PortIndex<FabricPort>;
}

const list = (v: string[] | undefined) => (v && v.length ? v.join(',') : null);

/** A stored port with the columns `updatePort` only fills in (COALESCE) besides the compared ones. */
type StoredRow = StoredPort & {
  portGuid: string | null;
  we: string | null;
  ws: string | null;
  se: string | null;
  ss: string | null;
  /** 1 when the latest topology scan saw it (topology-seen.ts). */
  seen: number;
};

/** True when `updatePort` would write back exactly what is stored (its COALESCEs included). */
function sameAsStored(
  row: {
    portGuid: string | null;
    lid: number | null;
    state: string | null;
    physState: string | null;
    widthActive: string | null;
    speedActive: string | null;
    widthEnabled: string | null;
    widthSupported: string | null;
    speedEnabled: string | null;
    speedSupported: string | null;
    remoteGuid: string | null;
    remotePort: number | null;
  },
  old: StoredRow,
): boolean {
  return (
    (row.portGuid ?? old.portGuid) === old.portGuid &&
    (row.lid ?? old.lid) === old.lid &&
    row.state === old.state &&
    row.physState === old.physState &&
    row.widthActive === old.widthActive &&
    row.speedActive === old.speedActive &&
    (row.widthEnabled ?? old.we) === old.we &&
    (row.widthSupported ?? old.ws) === old.ws &&
    (row.speedEnabled ?? old.se) === old.se &&
    (row.speedSupported ?? old.ss) === old.ss &&
    row.remoteGuid === old.remoteGuid &&
    row.remotePort === old.remotePort
  );
}

/** Nodes, ports and links with first/last seen, and the history of port state changes. */
export function createTopologyRepo(db: Db) {
  const updatePort = db.prepare(
    `UPDATE ports SET port_guid = COALESCE(@portGuid, port_guid), lid = COALESCE(@lid, lid), state = @state,
       phys_state = @physState, width_active = @widthActive, speed_active = @speedActive,
       width_enabled = COALESCE(@widthEnabled, width_enabled), width_supported = COALESCE(@widthSupported,
       width_supported),
       speed_enabled = COALESCE(@speedEnabled, speed_enabled), speed_supported = COALESCE(@speedSupported,
       speed_supported),
       remote_guid = @remoteGuid, remote_port = @remotePort, last_seen = @at, seen_latest = 1 WHERE id = @id`,
  );
  const insertHistory = db.prepare(
    'INSERT INTO port_state_history (port_id, at, scan_id, state, phys_state, width, speed) VALUES (?, ?, ?, ' +
      '?, ?, ?, ?)',
  );

  // The stored ports with everything `ingest` compares, one at a time (read beside the scan's
  // ports, or looked up by id): loading all 69k into maps first (two of them, with a string key
  // per port) held ~50 MB for the whole scan, while these rows are garbage right away.
  const STORED = `SELECT id, node_guid AS nodeGuid, port_num AS portNum, lid, state, phys_state AS physState,
       width_active AS widthActive, speed_active AS speedActive, remote_guid AS remoteGuid,
       remote_port AS remotePort, first_seen AS firstSeen, port_guid AS portGuid, width_enabled AS we,
       width_supported AS ws, speed_enabled AS se, speed_supported AS ss, seen_latest AS seen FROM ports`;
  const storedPort = db.prepare(`${STORED} WHERE id = ?`);
  /** Every stored port, one row at a time (the rows are garbage as soon as they are compared). */
  const storedPorts = db.prepare(STORED);

  /** Row ids of every stored port. */
  function portIds(): PortIndex<number> {
    const ids = new PortIndex<number>();
    for (const [id, guid, port] of db.prepare('SELECT id, node_guid, port_num FROM ports').raw().iterate() as Iterable<
      [number, Guid, number]
    >) {
      ids.set(guid, port, id);
    }
    return ids;
  }

  // Every write to nodes or ports goes through ingest/setTiers: they bump the topology version
  // when they wrote a row, which readers compare instead of scanning 69k ports for a change (see
  // topologyVersion). An unchanged re-scan writes none, so the readers keep what they built.
  const bump = db.prepare(BUMP_TOPOLOGY_SQL);

  return {
    /**
     * Stores one topology observation. Must run inside the scan's transaction. Ports not in
     * `ports` keep their last state; links not in `links` are marked absent when `complete`.
     */
    ingest(
      scanId: number,
      at: number,
      nodes: FabricNode[],
      ports: FabricPort[],
      links: FabricLink[],
      complete: boolean,
      linkTier?: () => LinkTierOf,
    ): TopologyChanges {
      // The latest scan's time: what rows it saw and this one does not keep as their last-seen.
      const last = latestSeen(db);
      const previousAt = last?.at ?? null;
      const changes: TopologyChanges = {
        newNodes: 0,
        newPorts: 0,
        stateChanges: [],
        newLinks: 0,
        goneLinks: [],
        seenLinks: new Set(),
        wrote: false,
        linksTiered: false,
      };
      // The same scan output as the latest one, into the rows it left: nothing to compare or
      // write (reading 293k stored ports to find that out was most of an hourly 45k import).
      const input = inputFingerprint(nodes, ports, links, complete);
      if (last && unchangedSince(db, last, input, at)) {
        changes.seenLinks = new Set(db.prepare('SELECT id FROM links WHERE seen_latest = 1').pluck().all() as number[]);
        setLatestSeen(db, at, input, last.shape);
        return changes;
      }
      const n = ingestNodes(db, at, previousAt, nodes);
      changes.newNodes = n.newNodes;
      let wrote = n.wrote;
      const remoteOf = new PortIndex<PortRef>();
      for (const l of links) {
        remoteOf.set(l.a.nodeGuid, l.a.portNum, l.b);
        remoteOf.set(l.b.nodeGuid, l.b.portNum, l.a);
      }
      // Row ids of the stored ports, by GUID and number (for the links below).
      let ids = new PortIndex<number>();
      const unchanged: number[] = [];
      // New ports go in batches (all 293k at a 45k-GPU fabric's first import), their first state
      // row follows in one statement after the loop. Their ids are given, the ones SQLite would
      // pick (one more than the largest, in insert order): reading 293k ids back cost ~1 s.
      const firstNewId = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 FROM ports').pluck().get() as number;
      const portIndexes = dropIndexesIfEmpty(db, 'ports');
      let nextId = firstNewId;
      const newPorts = new BatchInsert(
        db,
        `INSERT INTO ports (id, node_guid, port_num, port_guid, lid, state, phys_state, width_active, speed_active,
        width_enabled, width_supported, speed_enabled, speed_supported, remote_guid, remote_port, first_seen,
        last_seen, seen_latest)`,
        18,
      );
      const rowOf = (p: FabricPort) => {
        const remote = remoteOf.get(p.nodeGuid, p.portNum);
        return {
          nodeGuid: p.nodeGuid,
          portNum: p.portNum,
          portGuid: p.portGuid ?? null,
          lid: p.lid ?? null,
          state: p.state ?? null,
          physState: p.physState ?? null,
          widthActive: p.widthActive ?? null,
          speedActive: p.speedActive ?? null,
          widthEnabled: list(p.widthEnabled),
          widthSupported: list(p.widthSupported),
          speedEnabled: list(p.speedEnabled),
          speedSupported: list(p.speedSupported),
          remoteGuid: remote?.nodeGuid ?? null,
          remotePort: remote?.portNum ?? null,
          at,
        };
      };
      // Filled when no port was stored before this scan (a fabric's first import): the rows as a
      // PM sweep would read them back right after (~1 s for 293k ports at 45k GPUs).
      let firstPorts: SweepPortRow[] | undefined;
      const addNew = (row: ReturnType<typeof rowOf>) => {
        const id = nextId++;
        ids.set(row.nodeGuid, row.portNum, id);
        firstPorts?.push({
          id,
          nodeGuid: row.nodeGuid,
          portNum: row.portNum,
          widthActive: row.widthActive,
          speedActive: row.speedActive,
          firstSeen: at,
        });
        newPorts.add(
          id,
          row.nodeGuid,
          row.portNum,
          row.portGuid,
          row.lid,
          row.state,
          row.physState,
          row.widthActive,
          row.speedActive,
          row.widthEnabled,
          row.widthSupported,
          row.speedEnabled,
          row.speedSupported,
          row.remoteGuid,
          row.remotePort,
          at,
          at,
          1,
        );
        changes.newPorts++;
      };
      let restored = 0;
      /** Writes what changed of a stored port the scan saw again. */
      const restore = (id: number, p: FabricPort, row: ReturnType<typeof rowOf>, old: StoredRow) => {
        // A port exactly as stored and seen by the latest scan needs no write at all; one the
        // latest scan did not see only its flag and last-seen time (one statement for all).
        if (sameAsStored(row, old)) {
          if (old.seen !== 1) unchanged.push(id);
        } else {
          updatePort.run(Object.assign({}, row, { id })); // not a spread: on Node 20 that is a hidden class per port
          restored++;
        }
        if (
          old.state !== row.state ||
          old.physState !== row.physState ||
          old.widthActive !== row.widthActive ||
          old.speedActive !== row.speedActive
        ) {
          insertHistory.run(id, at, scanId, row.state, row.physState, row.widthActive, row.speedActive);
          changes.stateChanges.push({ portId: id, from: old, to: p });
        }
      };
      // Where the scan lists each port. Without a port listed twice (as every source delivers
      // them), the stored ports are read in one pass beside it: one statement per port (272k at
      // 45k GPUs) cost more than the comparison. A port listed twice keeps the per-port path
      // below, which applies its listings in order.
      const listed = new PortIndex<FabricPort>();
      // Stored ports the latest scan saw and this one does not list.
      const unseen: number[] = [];
      let twice = false;
      for (const p of ports) {
        if (listed.get(p.nodeGuid, p.portNum) === undefined) listed.set(p.nodeGuid, p.portNum, p);
        else twice = true;
      }
      if (!twice) {
        // Statements cannot run while the SELECT is open: the few changed ports are applied after it.
        const again: [number, FabricPort, ReturnType<typeof rowOf>, StoredRow][] = [];
        let storedCount = 0;
        for (const old of storedPorts.iterate() as Iterable<StoredRow>) {
          storedCount++;
          ids.set(old.nodeGuid, old.portNum, old.id);
          const p = listed.get(old.nodeGuid, old.portNum);
          if (p === undefined) {
            if (old.seen === 1) unseen.push(old.id);
            continue;
          }
          const row = rowOf(p);
          if (!sameAsStored(row, old)) again.push([old.id, p, row, old]);
          else if (old.seen !== 1) unchanged.push(old.id);
        }
        for (const [id, p, row, old] of again) restore(id, p, row, old);
        if (storedCount === 0) firstPorts = [];
        for (const p of ports) if (ids.get(p.nodeGuid, p.portNum) === undefined) addNew(rowOf(p));
      } else {
        ids = portIds();
        for (const p of ports) {
          const id = ids.get(p.nodeGuid, p.portNum);
          if (id === undefined) {
            addNew(rowOf(p));
            continue;
          }
          if (id >= firstNewId) continue; // the same port twice in one scan: the first is kept
          restore(id, p, rowOf(p), storedPort.get(id) as StoredRow);
        }
        for (const [id, guid, port] of db
          .prepare('SELECT id, node_guid, port_num FROM ports WHERE seen_latest = 1')
          .raw()
          .iterate() as Iterable<[number, Guid, number]>) {
          if (listed.get(guid, port) === undefined) unseen.push(id);
        }
      }
      if (unchanged.length)
        db.prepare('UPDATE ports SET last_seen = ?, seen_latest = 1 WHERE id IN (SELECT value FROM json_each(?))').run(
          at,
          JSON.stringify(unchanged),
        );
      if (previousAt !== null) stopSeeing(db, 'ports', 'id', unseen, previousAt);
      newPorts.flush();
      createIndexes(db, portIndexes);
      wrote ||= unchanged.length > 0 || unseen.length > 0 || changes.newPorts > 0 || changes.stateChanges.length > 0;
      if (changes.newPorts > 0) {
        db.prepare(`INSERT INTO port_state_history (port_id, at, scan_id, state, phys_state, width, speed)
          SELECT id, ?, ?, state, phys_state, width_active, speed_active FROM ports WHERE id >= ?`).run(
          at,
          scanId,
          firstNewId,
        );
      }
      const l = ingestLinks(db, at, previousAt, links, ids, complete, linkTier);
      changes.firstPorts = firstPorts;
      if (!twice) changes.listedPorts = listed;
      changes.linksTiered = l.tiered;
      changes.newLinks = l.newLinks;
      changes.goneLinks = l.goneLinks;
      changes.seenLinks = l.seenLinks;
      changes.wrote = wrote || restored > 0 || l.wrote;
      if (changes.wrote) bump.run();
      // A node or port listed twice is applied listing by listing: such a scan is never skipped.
      setLatestSeen(db, at, n.twice || twice ? null : input, shapeOf(db));
      return changes;
    },
    /** Stores the nodes' tiers and rails; returns how many nodes changed. */
    setTiers(tiers: { guid: Guid; tier: string | null; rail: number | null }[]): number {
      const now = new Map(
        (
          db.prepare('SELECT guid, tier, rail FROM nodes').all() as {
            guid: string;
            tier: string | null;
            rail: number | null;
          }[]
        ).map((n) => [n.guid, n]),
      );
      const changed: [Guid, string | null, number | null][] = [];
      for (const t of tiers) {
        const have = now.get(t.guid);
        if (!have || have.tier !== t.tier || have.rail !== t.rail) changed.push([t.guid, t.tier, t.rail]);
      }
      // One statement for all (every node changes at a fabric's first scan: 11k at 10k GPUs).
      if (changed.length) {
        bump.run();
        db.prepare(
          'UPDATE nodes SET tier = j.value ->> 1, rail = j.value ->> 2 FROM json_each(?) AS j WHERE nodes.guid ' +
            '= j.value ->> 0',
        ).run(JSON.stringify(changed));
      }
      return changed.length;
    },
  };
}
export type TopologyRepo = ReturnType<typeof createTopologyRepo>;
