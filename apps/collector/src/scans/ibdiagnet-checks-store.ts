import { ibdiagnetEvaluated, ibdiagnetVerdicts, isIbdiagnetKind, type FabricSnapshot } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createIbdiagnetRepo } from '../db/ibdiagnet-repo.ts';
import { syncFindings } from './findings-sync.ts';

/**
 * An ibdiagnet check that ran and no longer reports a subject has cleared it: one run is a whole
 * check of the fabric (an hourly run kept a fixed firmware drift open for half a day when it had
 * to be clean 10 times, as a minute's PM sweep has to).
 */
const RESOLVE_AFTER_RUNS = 1;

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
    RESOLVE_AFTER_RUNS,
  );
  repo.setChecksAt(runAt);
  return {
    firmware,
    findingsOpened: sync.opened,
    findingsUpdated: sync.updated,
    findingsResolved: sync.resolved,
  };
}
