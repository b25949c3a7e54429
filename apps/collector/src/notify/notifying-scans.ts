import type { ScanService } from '../scans/types.ts';
import type { Notifier } from './notifier.ts';

/**
 * The scan service with the notifier told after every scan and import, whatever triggered it
 * (schedule, API, CLI, drop directory). The kick only flags work: the scan's caller never waits
 * for a delivery, and a delivery can never fail a scan.
 */
export function notifyingScans(scans: ScanService, notifier: Notifier): ScanService {
  if (!notifier.targets.length) return scans;
  const after = <T>(p: Promise<T>): Promise<T> =>
    p.finally(() => {
      try {
        notifier.kick();
      } catch {
        // kick() only sets flags and starts a loop that catches its own errors.
      }
    });
  return {
    isRunning: (kind) => scans.isRunning(kind),
    run: (kind, trigger) => after(scans.run(kind, trigger)),
    importIbdiagnet: (dir, trigger) => after(scans.importIbdiagnet(dir, trigger)),
    importNccl: (...args) => after(scans.importNccl(...args)),
    importDiags: (...args) => after(scans.importDiags(...args)),
    importOpensmLog: (...args) => after(scans.importOpensmLog(...args)),
  };
}
