import type { WorklistEntry } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { writeStamp } from '../db/stamps.ts';
import { createSlurmRepo } from '../db/slurm-repo.ts';
import type { ImpactSettings } from './impact.ts';
import { findingsStamp, worklistFabricStamp } from '../db/worklist-queries.ts';
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
    private readonly impact: ImpactSettings = {},
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
      this.fabric ??= loadWorklistFabric(this.db, this.impact);
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
    // Every column a finding contributes changes one of these (see findingsStamp).
    // The Slurm jobs behind each entry change with every slurm scan, findings or not.
    const findings = findingsStamp(this.db) + createSlurmRepo(this.db).stamp();
    const fabric = worklistFabricStamp(this.db);
    if (fabric !== this.fabricStamp) {
      this.fabricStamp = fabric;
      this.fabric = null;
    } else if (findings === this.findingsStamp) return false;
    this.findingsStamp = findings;
    return true;
  }
}
