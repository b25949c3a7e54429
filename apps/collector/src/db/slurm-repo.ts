/** The Slurm jobs of the last squeue (migration 0014): replaced whole by each Slurm scan. */
import type { Db } from './open-db.ts';

export interface StoredJob {
  id: string;
  name: string;
  user: string;
  state: string;
  partition: string;
  nodeCount: number;
  hosts: string[];
  startedAt: number | null;
}

export function createSlurmRepo(db: Db) {
  return {
    /** Replaces the stored jobs with these (call inside the scan's transaction). */
    replace(scanId: number, at: number, jobs: readonly StoredJob[]): void {
      db.prepare('DELETE FROM slurm_jobs').run();
      const st = db.prepare(
        `INSERT INTO slurm_jobs
           (job_id, name, user_name, state, partition, node_count, hosts, started_at, scan_id, seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_id) DO NOTHING`,
      );
      for (const j of jobs)
        st.run(
          j.id,
          j.name,
          j.user,
          j.state,
          j.partition,
          j.nodeCount,
          JSON.stringify(j.hosts),
          j.startedAt,
          scanId,
          at,
        );
    },
    /** Every stored job, by job id. */
    list(): StoredJob[] {
      const rows = db
        .prepare(
          `SELECT job_id AS id, name, user_name AS user, state, partition, node_count AS nodeCount, hosts,
                  started_at AS startedAt FROM slurm_jobs ORDER BY job_id`,
        )
        .all() as (Omit<StoredJob, 'hosts'> & { hosts: string })[];
      return rows.map((r) => ({ ...r, hosts: JSON.parse(r.hosts) as string[] }));
    },
    /** When the stored jobs were read (null: never). */
    seenAt(): number | null {
      return db.prepare('SELECT MAX(seen_at) FROM slurm_jobs').pluck().get() as number | null;
    },
    /** Moves when the stored jobs change (the worklist cache's stamp). */
    stamp(): string {
      return JSON.stringify(db.prepare('SELECT COUNT(*), MAX(scan_id), MAX(seen_at) FROM slurm_jobs').raw().get());
    },
  };
}
