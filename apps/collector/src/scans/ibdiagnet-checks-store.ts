import { ibdiagnetEvaluated, ibdiagnetVerdicts, isIbdiagnetKind, type FabricSnapshot } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createIbdiagnetRepo } from '../db/ibdiagnet-repo.ts';
import { syncFindings } from './findings-sync.ts';

/**
 * An ibdiagnet check that ran and no longer reports a subject resolves it at once: one run is a
 * whole check of the fabric, unlike a minute's PM rate, which needs a clean period to mean
 * anything (an hourly run would otherwise keep a fixed firmware drift open for hours).
 */
const RESOLVE_AFTER_MS = 0;

/**
 * Stores what ibdiagnet itself concluded: the firmware it read, and its warnings and errors as
 * findings (see ibdiagnet-checks.ts in packages/fabric). A run older than the newest one applied
 * (an archive imported late) leaves the findings alone: its verdicts are history, not news.
 */
export function storeIbdiagnetChecks(
  db: Db,
  names: NameBook,
  scanId: number,
  at: number,
  runAt: number,
  snap: Pick<FabricSnapshot, 'nodes' | 'toolFindings' | 'toolChecks' | 'firmware'>,
): Record<string, number> {
  const repo = createIbdiagnetRepo(db);
  const firmware = repo.storeFirmware(snap.firmware ?? [], runAt, scanId);
  if (runAt < repo.checksAt()) return { firmware, olderRun: 1 };
  const desc = new Map(snap.nodes.map((n) => [n.guid, n.description]));
  const verdicts = ibdiagnetVerdicts(snap, { nodeName: (g) => names.name(g, desc.get(g)) });
  const evaluated = ibdiagnetEvaluated(snap);
  const sync = syncFindings(
    createFindingsRepo(db),
    verdicts,
    (kind) => isIbdiagnetKind(kind) && evaluated(kind),
    at,
    RESOLVE_AFTER_MS,
  );
  repo.setChecksAt(runAt);
  return {
    firmware,
    findingsOpened: sync.opened,
    findingsUpdated: sync.updated,
    findingsResolved: sync.resolved,
  };
}
