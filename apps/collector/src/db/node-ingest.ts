import type { FabricNode } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { BatchInsert } from './batch-insert.ts';
import { stopSeeing } from './topology-seen.ts';

/**
 * Upserts the scan's nodes that are new or differ from the stored row, or that the latest scan
 * did not see; the nodes it saw and this one lacks keep `previousAt`.
 */
export function ingestNodes(
  db: Db,
  at: number,
  previousAt: number | null,
  nodes: FabricNode[],
): { newNodes: number; wrote: boolean; twice: boolean } {
  let newNodes = 0;
  const stored = new Map<string, [string, string, number, number | null, number]>();
  for (const r of db
    .prepare('SELECT guid, type, description, num_ports, lid, seen_latest FROM nodes')
    .raw()
    .iterate() as Iterable<[string, string, string, number, number | null, number]>)
    stored.set(r[0], [r[1], r[2], r[3], r[4], r[5]]);
  const listed = new Set<string>();
  // A node listed twice is upserted every time, in order, as it always was.
  let twice = false;
  for (const n of nodes) {
    if (listed.has(n.guid)) twice = true;
    listed.add(n.guid);
  }
  const upsert = new BatchInsert(
    db,
    'INSERT INTO nodes (guid, type, description, num_ports, lid, first_seen, last_seen, seen_latest)',
    8,
    `ON CONFLICT (guid) DO UPDATE SET type = excluded.type, description = excluded.description,
       num_ports = excluded.num_ports, lid = COALESCE(excluded.lid, nodes.lid), last_seen = excluded.last_seen,
       seen_latest = 1`,
  );
  let written = 0;
  for (const n of nodes) {
    const old = stored.get(n.guid);
    if (old === undefined) newNodes++;
    else if (
      !twice &&
      old[4] === 1 &&
      old[0] === n.type &&
      old[1] === n.description &&
      old[2] === n.numPorts &&
      (n.lid ?? old[3]) === old[3]
    )
      continue;
    upsert.add(n.guid, n.type, n.description, n.numPorts, n.lid ?? null, at, at, 1);
    written++;
  }
  upsert.flush();
  const unseen: string[] = [];
  if (previousAt !== null) {
    for (const [guid, old] of stored) if (old[4] === 1 && !listed.has(guid)) unseen.push(guid);
    stopSeeing(db, 'nodes', 'guid', unseen, previousAt);
  }
  return { newNodes, wrote: written > 0 || unseen.length > 0, twice };
}
