import type { Db } from './open-db.ts';

/**
 * The topology's change counters (table change_counters): readers rebuild what they derived from
 * nodes, ports and links only when one moved. Kept apart from the repository that writes them, as
 * the readers (topology reply, scans, summary) need these and nothing else of it.
 */

/** Moves whenever nodes or ports were written (in the same transaction as the write). */
export function topologyVersion(db: Db): number {
  return (db.prepare("SELECT n FROM change_counters WHERE name = 'topology'").pluck().get() as number | undefined) ?? 0;
}

/** The statement that moves the topology version (prepared once by writers that bump often). */
export const BUMP_TOPOLOGY_SQL =
  "INSERT INTO change_counters (name, n) VALUES ('topology', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1";

/** Moves the topology version: for writers of nodes, ports or link tiers outside `ingest`/`setTiers`. */
export function bumpTopologyVersion(db: Db): void {
  db.prepare(BUMP_TOPOLOGY_SQL).run();
}

/** What GET /api/topology shows, as change counters read in one statement (migration 0021). */
export interface TopologyCounters {
  /** Moves with nodes, ports, link tiers (topology version), links' ends, presence, deletes. */
  shape: string;
  /** Moves with a link's health or reason. */
  colour: string;
}

/** A reader of the topology's change counters, its statement prepared once: three primary-key reads. */
export function topologyCounters(db: Db): () => TopologyCounters {
  const st = db
    .prepare(
      `SELECT COALESCE((SELECT n FROM change_counters WHERE name = 'topology'), 0) || '/' ||
         (SELECT n FROM change_counters WHERE name = 'links'),
       (SELECT n FROM change_counters WHERE name = 'link-colour')`,
    )
    .raw();
  return () => {
    const [shape, colour] = st.get() as [string, number];
    return { shape, colour: String(colour) };
  };
}
