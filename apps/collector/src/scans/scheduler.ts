import cron, { type ScheduledTask } from 'node-cron';
import type { Config } from '../config.ts';
import type { ScanService } from './types.ts';
import { scheduledKinds, type ScheduledKind } from '../cadence.ts';

export { scheduledKinds, type ScheduledKind };

export interface Scheduler {
  stop(): void;
  tasks: { kind: ScheduledKind; expression: string }[];
}

/**
 * One node-cron task per scan kind, each with `noOverlap` (a slow sweep skips the next tick
 * instead of piling up) and a random start delay (jitter). A failing scan is recorded by the
 * pipeline and the schedule simply goes on: nothing here may throw out of a tick.
 */
export function startScheduler(
  config: Config,
  scans: ScanService,
  log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
): Scheduler {
  const tasks: { kind: ScheduledKind; expression: string; task: ScheduledTask }[] = [];
  // A tick that is still waiting out its jitter when stop() is called must not start a scan
  // (on shutdown the database is being closed under it).
  let stopped = false;
  for (const kind of scheduledKinds(config)) {
    const expression = config.cron[kind];
    const task = cron.schedule(
      expression,
      async () => {
        if (config.jitterMs > 0) await new Promise((r) => setTimeout(r, Math.random() * config.jitterMs));
        if (stopped) return;
        try {
          const row = await scans.run(kind, 'schedule');
          if (row.status === 'failed') log.warn({ scan: row.id, kind, error: row.error }, 'scheduled scan failed');
        } catch (err) {
          log.warn({ err, kind }, 'scheduled scan threw');
        }
      },
      { name: `ibwatch-${kind}`, noOverlap: true, logger: { info() {}, warn() {}, error() {}, debug() {} } as never },
    );
    tasks.push({ kind, expression, task });
  }
  log.info({ tasks: tasks.map((t) => `${t.kind}@${t.expression}`) }, 'scheduler started');
  return {
    tasks: tasks.map(({ kind, expression }) => ({ kind, expression })),
    stop() {
      stopped = true;
      for (const t of tasks) t.task.destroy();
    },
  };
}
