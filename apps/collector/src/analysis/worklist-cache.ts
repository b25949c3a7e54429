import type { WorklistEntry } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { writeStamp } from '../db/stamps.ts';
import {
  computeWorklist,
  filterWorklist,
  loadWorklistFabric,
  type WorklistFabric,
  type WorklistFilter,
} from './worklist.ts';

/**
 * The worklist served from memory. Building it reads every active and recent finding, the
 * 30k-link join, nodes and cables: seconds at 10k GPUs, so rebuilding it per request made
 * /api/worklist the slowest endpoint (pnpm bench, api stage). It is rebuilt only when
 * something it reads may have changed:
 * - a write: `total_changes()` (this connection) and `data_version` (other connections, e.g.
 *   the CLI) are O(1) and move on any commit;
 * - after a write, only if the tables it reads changed (the content stamp): SM scans, nccl
 *   imports and retention write often without touching findings, links, ports, nodes or cables;
 *   the fabric side (links, ports, nodes, cables) is reloaded only when it changed itself,
 *   not when a sweep changed findings;
 * - time alone: a resolved finding leaving the 7-day window (`validUntil`).
 */
export class WorklistCache {
  private entries: WorklistEntry[] | null = null;
  private validUntil = 0;
  private writeStamp = '';
  private findingsStamp = '';
  private fabricStamp = '';
  private fabric: WorklistFabric | null = null;
  private builds = 0;

  private readonly writes: () => string;

  constructor(
    private readonly db: Db,
    private readonly names: NameBook,
  ) {
    this.writes = writeStamp(db);
  }

  get(filter: WorklistFilter, now = Date.now()): WorklistEntry[] {
    return filterWorklist(this.current(now), filter);
  }

  /**
   * Moves whenever the entries are rebuilt: the stamp of the route's serialised replies
   * (filtering and serialising thousands of entries per request was most of a cached
   * worklist's cost).
   */
  version(now = Date.now()): string {
    this.current(now);
    return String(this.builds);
  }

  private current(now: number): WorklistEntry[] {
    // changed() first: it also records the stamps the new build goes with.
    if (this.changed() || !this.entries || now > this.validUntil) {
      this.fabric ??= loadWorklistFabric(this.db);
      const built = computeWorklist(this.db, this.names, now, this.fabric);
      this.entries = built.entries;
      this.validUntil = built.validUntil;
      this.builds++;
    }
    return this.entries;
  }

  /** False when the tables the worklist reads are as they were at the last call. */
  private changed(): boolean {
    const w = this.writes();
    if (w === this.writeStamp) return false;
    this.writeStamp = w;
    // Every column a finding contributes (state, severity, title, short, times) changes with
    // one of these: touches move last_seen, acks set acknowledged_at, resolves resolved_at,
    // clearing sets cleared_at (and adds one to the cleared count).
    const findings = JSON.stringify(
      this.db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM findings) AS fc, (SELECT MAX(id) FROM findings) AS fi, (SELECT MAX(last_seen) FROM findings) AS fl,
              (SELECT MAX(resolved_at) FROM findings) AS fr, (SELECT MAX(acknowledged_at) FROM findings) AS fa,
              (SELECT SUM(state = 'open') FROM findings) AS fo,
              (SELECT MAX(cleared_at) FROM findings) AS fx, (SELECT COUNT(*) FROM findings WHERE cleared_at IS NULL) AS fn`,
        )
        .raw()
        .get(),
    );
    const fabric = JSON.stringify(
      this.db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM links) AS lc, (SELECT MAX(id) FROM links) AS li, (SELECT MAX(last_seen) FROM links) AS ll,
              (SELECT COUNT(*) FROM ports) AS pc, (SELECT MAX(id) FROM ports) AS pi, (SELECT MAX(last_seen) FROM ports) AS pl,
              (SELECT COUNT(*) FROM nodes) AS nc, (SELECT MAX(last_seen) FROM nodes) AS nl,
              (SELECT COUNT(*) FROM cables) AS cc, (SELECT MAX(updated_at) FROM cables) AS cu`,
        )
        .raw()
        .get(),
    );
    if (fabric !== this.fabricStamp) {
      this.fabricStamp = fabric;
      this.fabric = null;
    } else if (findings === this.findingsStamp) return false;
    this.findingsStamp = findings;
    return true;
  }
}
