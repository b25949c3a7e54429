import type { SqueueResult } from '@ibwatch/parsers';
import type { Db } from '../db/open-db.ts';
import { createSlurmRepo } from '../db/slurm-repo.ts';

/** Stores the jobs of one squeue (replacing the last ones); the scan's summary counts them. */
export function storeSlurm(db: Db, scanId: number, at: number, data: SqueueResult): Record<string, number> {
  createSlurmRepo(db).replace(scanId, at, data.jobs);
  const running = data.jobs.filter((j) => j.state === 'RUNNING');
  return {
    jobs: data.jobs.length,
    running: running.length,
    hosts: new Set(running.flatMap((j) => j.hosts)).size,
  };
}
