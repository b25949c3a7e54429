/** Retention deletes besides the counters' own (counters-repo.ts `prune`). */
import type { Db } from './open-db.ts';

/** Cut-off times (epoch ms): rows older than these go. */
export interface RetentionCutoffs {
  rawOutputs: number;
  stateHistory: number;
  smObservations: number;
  scans: number;
  resolvedFindings: number;
  smEvents: number;
}

/** Deletes what is older than its cut-off; returns the rows deleted per table. Call in a transaction. */
export function deleteExpired(db: Db, c: RetentionCutoffs) {
  const raw = db.prepare('DELETE FROM raw_outputs WHERE created_at < ?').run(c.rawOutputs).changes;
  const history = db.prepare('DELETE FROM port_state_history WHERE at < ?').run(c.stateHistory).changes;
  const sms = db.prepare('DELETE FROM sm_observations WHERE at < ?').run(c.smObservations).changes;
  // Scans an nccl run refers to (nccl_runs.scan_id) are kept with the run.
  const scans = db
    .prepare(
      "DELETE FROM scans WHERE started_at < ? AND status != 'running' " +
        'AND id NOT IN (SELECT scan_id FROM nccl_runs WHERE scan_id IS NOT NULL)',
    )
    .run(c.scans).changes;
  const findings = db
    .prepare("DELETE FROM findings WHERE state = 'resolved' AND resolved_at < ?")
    .run(c.resolvedFindings).changes;
  const smEvents = db.prepare('DELETE FROM sm_events WHERE at < ?').run(c.smEvents).changes;
  return { rawOutputs: raw, stateHistory: history, smObservations: sms, scans, findings, smEvents };
}
