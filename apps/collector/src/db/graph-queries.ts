/**
 * Reads of the stored graph (nodes, ports, links) that the scan stores judge a new observation
 * against. Each statement is prepared per call, as the stores did before it moved here: they
 * run once per scan, next to statements that cost far more.
 */
import type { FabricNode } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { bumpTopologyVersion } from './topology-counters.ts';

/** A link's two ends by GUID and port number. */
export interface LinkEndsRow {
  ag: string;
  ap: number;
  bg: string;
  bp: number;
}

/** A port as a PM sweep needs it (see CounterBaseline.topology). */
export interface SweepPortRow {
  id: number;
  nodeGuid: string;
  portNum: number;
  widthActive: string | null;
  speedActive: string | null;
  firstSeen: number;
}

const LINK_ENDS =
  'SELECT pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp FROM links l ' +
  'JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id';

/** Every link ever stored (gone ones too), by its ends. */
export function allLinkEnds(db: Db): LinkEndsRow[] {
  return db.prepare(LINK_ENDS).all() as LinkEndsRow[];
}

/** Every stored link (gone ones too) with an end among `portIds`, oldest first as in the table. */
export function linkEndsAtPorts(db: Db, portIds: number[]): LinkEndsRow[] {
  const ids = JSON.stringify([...new Set(portIds)]);
  return db
    .prepare(
      `${LINK_ENDS} WHERE l.a_port_id IN (SELECT value FROM json_each(?)) ` +
        'OR l.b_port_id IN (SELECT value FROM json_each(?)) ORDER BY l.id',
    )
    .all(ids, ids) as LinkEndsRow[];
}

/** `[id, tier, tier of the a end's node, tier of the b end's node]` of every stored link. */
export function linkAndEndTiers(db: Db): Iterable<[number, string | null, string | null, string | null]> {
  return db
    .prepare(
      'SELECT l.id, l.tier, na.tier, nb.tier FROM links l JOIN ports pa ON pa.id = l.a_port_id ' +
        'JOIN ports pb ON pb.id = l.b_port_id LEFT JOIN nodes na ON na.guid = pa.node_guid ' +
        'LEFT JOIN nodes nb ON nb.guid = pb.node_guid',
    )
    .raw()
    .iterate() as Iterable<[number, string | null, string | null, string | null]>;
}

/** Sets the tier of the links given as `[id, tier]`, in one statement (31k at a first scan). */
export function setLinkTiers(db: Db, changes: [number, string][]): void {
  // Link tiers have no trigger (136k rows at a 45k-GPU first import, see migration 0021).
  if (changes.length) bumpTopologyVersion(db);
  db.prepare('UPDATE links SET tier = j.value ->> 1 FROM json_each(?) AS j WHERE links.id = j.value ->> 0').run(
    JSON.stringify(changes),
  );
}

/** Every stored node. */
export function allNodes(db: Db): FabricNode[] {
  return db.prepare('SELECT guid, type, description, num_ports AS numPorts FROM nodes').all() as FabricNode[];
}

/** Every stored node's NodeDescription. */
export function nodeDescriptions(db: Db): { guid: string; description: string }[] {
  return db.prepare('SELECT guid, description FROM nodes').all() as { guid: string; description: string }[];
}

export function portCount(db: Db): number {
  return db.prepare('SELECT COUNT(*) FROM ports').pluck().get() as number;
}

/** Every port, one row at a time (69k at 10k GPUs: no array of them all). */
export function iterateSweepPorts(db: Db): Iterable<SweepPortRow> {
  return db
    .prepare(
      'SELECT id, node_guid AS nodeGuid, port_num AS portNum, width_active AS widthActive, ' +
        'speed_active AS speedActive, first_seen AS firstSeen FROM ports',
    )
    .iterate() as Iterable<SweepPortRow>;
}

/** `[port GUID, node GUID]` of every port that has a port GUID, one at a time. */
export function iteratePortGuids(db: Db): Iterable<[string, string]> {
  return db.prepare('SELECT port_guid, node_guid FROM ports WHERE port_guid IS NOT NULL').raw().iterate() as Iterable<
    [string, string]
  >;
}

/** When the present link at each of `portIds` was first seen, by port id (ports without one are left out). */
export function linkFirstSeenAtPorts(db: Db, portIds: number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (!portIds.length) return out;
  const ids = JSON.stringify([...new Set(portIds)]);
  const rows = db
    .prepare(
      'SELECT a_port_id, b_port_id, first_seen FROM links WHERE present = 1 AND ' +
        '(a_port_id IN (SELECT value FROM json_each(?)) OR b_port_id IN (SELECT value FROM json_each(?)))',
    )
    .raw()
    .all(ids, ids) as [number, number, number][];
  for (const [a, b, first] of rows) {
    out.set(a, first);
    out.set(b, first);
  }
  return out;
}

/** The LID to address each of `portIds` with: the port's own, else its node's (a switch's port 0 LID); 0 is none. */
export function lidsOfPorts(db: Db, portIds: number[]): Map<number, number> {
  if (!portIds.length) return new Map();
  const rows = db
    .prepare(
      'SELECT p.id, COALESCE(NULLIF(p.lid, 0), NULLIF(n.lid, 0)) FROM ports p LEFT JOIN nodes n ' +
        'ON n.guid = p.node_guid WHERE p.id IN (SELECT value FROM json_each(?)) AND ' +
        'COALESCE(NULLIF(p.lid, 0), NULLIF(n.lid, 0)) IS NOT NULL',
    )
    .raw()
    .all(JSON.stringify([...new Set(portIds)])) as [number, number][];
  return new Map(rows);
}

/** LID -> node GUID of every port with a LID (a switch's LID is its port 0's): what perfquery names. */
export function lidNodes(db: Db): Map<number, string> {
  const rows = db.prepare('SELECT lid, node_guid FROM ports WHERE lid IS NOT NULL').raw().all() as [number, string][];
  return new Map(rows);
}

/** GUIDs of the nodes in the topology. */
export function nodeGuids(db: Db): Set<string> {
  return new Set(db.prepare('SELECT guid FROM nodes').pluck().all() as string[]);
}
