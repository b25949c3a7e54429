import type { FabricLink, Guid, PortIndex } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { BatchInsert, createIndexes, dropIndexesIfEmpty } from './batch-insert.ts';
import { stopSeeing } from './topology-seen.ts';

/** What a scan's links changed (see TopologyChanges). */
export interface LinkChanges {
  newLinks: number;
  goneLinks: { id: number; aPortId: number; bPortId: number }[];
  seenLinks: Set<number>;
  /** True when any link row was written. */
  wrote: boolean;
  /** True when no link was stored before and every new one went in with its tier (`linkTier`). */
  tiered: boolean;
}

/** A link's tier from its ends' nodes: the a end (lower port row id) first, as stored. */
export type LinkTierOf = (aNode: Guid, bNode: Guid) => string | null;

/** A stored link: id, present, seen by the latest scan (0/1), first seen; -1 for one inserted by this scan. */
type Stored = [id: number, present: number, seen: number, firstSeen: number];

/**
 * Stores the links a scan saw, by their ends' port row ids (`ids`). A link stored, present and
 * seen by the latest scan is not written again: an unchanged re-scan of 136k links (45k GPUs)
 * writes none. New links are inserted, links seen again after a gap marked present and seen;
 * with `complete`, present links the scan lacks are marked gone. Links the latest scan saw and
 * this one does not keep `previousAt` as their last-seen time (topology-seen.ts).
 */
export function ingestLinks(
  db: Db,
  at: number,
  previousAt: number | null,
  links: FabricLink[],
  ids: PortIndex<number>,
  complete: boolean,
  linkTier?: () => LinkTierOf,
): LinkChanges {
  const seen = new Set<number>();
  const out: LinkChanges = { newLinks: 0, goneLinks: [], seenLinks: seen, wrote: false, tiered: false };
  // By the ends' row ids, as one number while they fit (a string per link otherwise).
  const rows = db
    .prepare('SELECT id, a_port_id, b_port_id, present, seen_latest, first_seen FROM links')
    .raw()
    .all() as [number, number, number, number, number, number][];
  const maxId = (db.prepare('SELECT COALESCE(MAX(id), 0) FROM ports').pluck().get() as number) + 1;
  const small = maxId < 2 ** 21;
  const key = (a: number, b: number): number | string => (small ? a * 2 ** 32 + b : `${a},${b}`);
  const stored = new Map<number | string, Stored>();
  const ends = new Map<number, [number, number]>();
  for (const [id, a, b, present, s, firstSeen] of rows) {
    stored.set(key(a, b), [id, present, s, firstSeen]);
    if (present === 1) ends.set(id, [a, b]);
  }

  // Every stored link is in `stored`, so an insert never conflicts; its id is given, the one
  // SQLite would pick (one more than the largest, in insert order), not read back per batch.
  let nextId = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 FROM links').pluck().get() as number;
  const insert = new BatchInsert(
    db,
    'INSERT INTO links (id, a_port_id, b_port_id, present, first_seen, last_seen, seen_latest, tier)',
    8,
  );
  // New links go in with their tier when the caller can tell it (asked once, at the first new
  // link): setting 136k tiers in a second pass was ~1 s of a 45k-GPU fabric's first import.
  let tierOf: LinkTierOf | null | undefined = linkTier ? undefined : null;
  const again: number[] = [];
  const indexes = dropIndexesIfEmpty(db, 'links');
  for (const l of links) {
    const x = ids.get(l.a.nodeGuid, l.a.portNum);
    const y = ids.get(l.b.nodeGuid, l.b.portNum);
    if (x === undefined || y === undefined) continue;
    const a = Math.min(x, y);
    const b = Math.max(x, y);
    const k = key(a, b);
    const s = stored.get(k);
    if (s === undefined) {
      // New: first seen now (a second listing of it below counts again, as the upsert did).
      stored.set(k, [-1, 1, 1, at]);
      seen.add(nextId);
      if (tierOf === undefined) tierOf = linkTier!();
      const tier =
        tierOf === null ? null : x < y ? tierOf(l.a.nodeGuid, l.b.nodeGuid) : tierOf(l.b.nodeGuid, l.a.nodeGuid);
      insert.add(nextId++, a, b, 1, at, at, 1, tier);
      out.newLinks++;
      continue;
    }
    if (s[3] === at) out.newLinks++;
    if (s[0] === -1) continue;
    seen.add(s[0]);
    if (s[1] !== 1 || s[2] !== 1) {
      again.push(s[0]);
      s[1] = 1;
      s[2] = 1;
    }
  }
  insert.flush();
  createIndexes(db, indexes);
  if (again.length)
    db.prepare(
      'UPDATE links SET present = 1, last_seen = ?, seen_latest = 1 WHERE id IN (SELECT value FROM json_each(?))',
    ).run(at, JSON.stringify(again));
  if (complete) {
    for (const [id, [a, b]] of ends) if (!seen.has(id)) out.goneLinks.push({ id, aPortId: a, bPortId: b });
    const markGone = db.prepare('UPDATE links SET present = 0 WHERE id = ?');
    for (const l of out.goneLinks) markGone.run(l.id);
  }
  const unseen: number[] = [];
  if (previousAt !== null) {
    for (const r of rows) if (r[4] === 1 && !seen.has(r[0])) unseen.push(r[0]);
    stopSeeing(db, 'links', 'id', unseen, previousAt);
  }
  out.tiered = rows.length === 0 && tierOf !== null;
  out.wrote = out.newLinks > 0 || again.length > 0 || out.goneLinks.length > 0 || unseen.length > 0;
  return out;
}
