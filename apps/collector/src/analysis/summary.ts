import type { FabricSummary } from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import type { Db } from '../db/open-db.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { contentStamp, stamped } from '../db/stamps.ts';
import type { NameBook } from '../names.ts';
import { PM_KINDS, TRAFFIC_KINDS } from '../queries/finding-kinds.ts';
import { smSummary } from '../queries/sm-view.ts';
import { fabricStatusReport } from './fabric-status.ts';

const DAY = 86_400_000;

/**
 * Builds `/api/summary` (and what `ibwatch status` prints): counts, findings now, SM summary,
 * last scans, nccl trend, and the fabric status report. `upSince`: when the collector that
 * schedules the scans started, null when unknown (see fabricStatusReport).
 */
export function createSummaryBuilder(
  db: Db,
  names: NameBook,
  config: Config,
): (now: number, upSince: number | null) => FabricSummary {
  const q = createFabricQueries(db, names);
  const findings = createFindingsRepo(db);
  const scans = createScansRepo(db);
  const nccl = createNcclRepo(db);
  // Counting 69k ports and 31k links took ~30 ms of a ~45 ms summary build at 10k GPUs: only
  // after a commit that changed nodes or links (scan rows and SM observations commit often).
  const nodesStamp = contentStamp(db, () => q.nodesStamp());
  const linksStamp = contentStamp(db, () => q.linksStamp());
  const counts = stamped(
    () => `${nodesStamp()}|${linksStamp()}`,
    () => q.counts(),
  );
  // Placeholders' names: read again only when the nodes changed (a fabric without leaves reads them all).
  const exampleNames = stamped(nodesStamp, () => q.exampleNames());
  return (now, upSince) => {
    // Ports and links over a counter threshold now: one per subject however many counters are
    // high on it, and only PM kinds (flaps, congestion and sustained XmitWait included; topology kinds are not), as
    // the latest sweep observed them (cleared findings and info ones do not count).
    const overThreshold = new Set(
      q
        .currentFindingSubjects()
        .filter(
          (f) => (f.subjectType === 'port' || f.subjectType === 'link') && (PM_KINDS(f.kind) || TRAFFIC_KINDS(f.kind)),
        )
        .map((f) => f.subjectKey),
    ).size;
    const sm = smSummary({ db, names, config }, now);
    return {
      generatedAt: now,
      expectedRate: config.expectedRate,
      ...counts(),
      portsOverThreshold: overThreshold,
      findingsBySeverity: findings.countCurrentBySeverity(),
      clearedFindings: findings.countCleared(),
      sm,
      lastScans: scans.latestPerKind(),
      completedScans: scans.lastOkPerKind(),
      exampleNames: exampleNames(),
      ncclTrend: nccl.trend(now - 30 * DAY, now),
      ...fabricStatusReport(db, names, config, sm, now, upSince),
    };
  };
}
