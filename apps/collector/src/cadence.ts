/**
 * Schedule arithmetic shared by the configuration (checks), the scheduler and the staleness
 * verdicts: a leaf module (it imports no other module of the collector), so config.ts can use it.
 */
import cron from 'node-cron';
import { formatAge, type CollectorSchedule } from '@ibwatch/fabric';

export type ScheduledKind = 'pm' | 'sm' | 'topology' | 'ibdiagnet';

/** Which scan kinds a source can run on a schedule. */
export function scheduledKinds(config: { source: 'lab' | 'diags' | 'ibdiagnet' | 'import-only' }): ScheduledKind[] {
  switch (config.source) {
    case 'lab':
    case 'diags':
      return ['topology', 'pm', 'sm'];
    case 'ibdiagnet':
      return ['ibdiagnet', 'sm'];
    case 'import-only':
      return [];
  }
}

const SAMPLE_RUNS = 48;
const cache = new Map<string, number>();

/**
 * The expected time between two runs of a node-cron schedule: the longest gap among its next
 * runs (`0 *\/10 * * * *` -> 10 min; `0 0 9-17 * * *` -> the 16 h overnight gap). A scan kind
 * whose last success is three of these old is stale.
 */
export function cronIntervalMs(expression: string): number {
  let ms = cache.get(expression);
  if (ms === undefined) {
    // createTask does not start the task; destroy() removes it from node-cron's registry.
    const task = cron.createTask(expression, () => undefined);
    try {
      const runs = task.getNextRuns(SAMPLE_RUNS).map((d) => d.getTime());
      ms = 0;
      for (let i = 1; i < runs.length; i++) ms = Math.max(ms, runs[i]! - runs[i - 1]!);
    } finally {
      void task.destroy();
    }
    cache.set(expression, ms);
  }
  return ms;
}

/** Expected interval of each scan kind, from the configured schedules. */
export function scanIntervals(config: { cron: Record<ScheduledKind, string> }): Record<ScheduledKind, number> {
  return {
    pm: cronIntervalMs(config.cron.pm),
    sm: cronIntervalMs(config.cron.sm),
    topology: cronIntervalMs(config.cron.topology),
    ibdiagnet: cronIntervalMs(config.cron.ibdiagnet),
  };
}

/**
 * The source and cadences as `/api/summary` and `ibwatch status` state them (`collector`):
 * the freshness beside it is judged by these intervals.
 */
export function collectorSchedule(
  config: { source: 'lab' | 'diags' | 'ibdiagnet' | 'import-only'; cron: Record<ScheduledKind, string> },
  startedAt: number | null,
  from: CollectorSchedule['from'],
): CollectorSchedule {
  const intervals = scanIntervals(config);
  const schedules = scheduledKinds(config).map((kind) => ({
    kind,
    cron: config.cron[kind],
    intervalMs: intervals[kind],
  }));
  const text = schedules.length
    ? schedules.map((s) => `${s.kind} every ${formatAge(s.intervalMs)}`).join(', ')
    : `none (${config.source}): data comes only from imports and uploads`;
  return { source: config.source, schedules, text, startedAt, from };
}
