import type { FabricSummary, ScanKind } from '@ibwatch/fabric';

/**
 * Whether a view with no rows is "checked, nothing found" or "no data yet": an empty worklist
 * on a database no scan has filled is not a fabric with nothing to reseat.
 */
export interface Coverage {
  state: 'no-data' | 'checked';
  /** The collector schedules no scan (IBWATCH_SOURCE=import-only): only imports fill it. */
  importOnly: boolean;
  /** Start of the latest completed scan or import that feeds the view (null: none). */
  lastOkAt: number | null;
  /** The kinds that completed, newest first. */
  kinds: ScanKind[];
}

/** Which scan kinds fill a view: every one but those that carry no port, link or finding data. */
export type Feeds = (kind: ScanKind) => boolean;

/** Ports, links and cables: everything but the SM, nccl-tests and Slurm imports. */
export const LINK_DATA: Feeds = (kind) => kind !== 'sm' && kind !== 'import-nccl' && kind !== 'slurm';
/** Findings come from every kind of scan and import. */
export const ANY_DATA: Feeds = () => true;

export function coverage(s: Pick<FabricSummary, 'completedScans' | 'collector'>, feeds: Feeds): Coverage {
  const done = s.completedScans.filter((c) => feeds(c.kind)).sort((a, b) => b.lastOkAt - a.lastOkAt);
  return {
    state: done.length ? 'checked' : 'no-data',
    importOnly: s.collector.schedules.length === 0,
    lastOkAt: done[0]?.lastOkAt ?? null,
    kinds: done.map((c) => c.kind),
  };
}

/** What to do when there is no data yet: wait for the scheduler, or import (nothing is scheduled). */
export function noDataAdvice(c: Pick<Coverage, 'importOnly'>, scheduled: readonly ScanKind[] = []): string {
  if (c.importOnly)
    return (
      'This collector schedules no scans (import-only): import an ibdiagnet run ' +
      '(ibwatch import ibdiagnet DIR), or set IBWATCH_SOURCE to scan the fabric.'
    );
  const kinds = scheduled.length ? `${scheduled.join(', ')} ` : '';
  return `The first scheduled ${kinds}scans run shortly after the collector starts.`;
}
