import { isNoRateKind, SATURATED_KIND, type CollectorSchedule, type FabricSummary } from '@ibwatch/fabric';
import { baselineScan } from '../db/counters-repo.ts';
import { collectorSchedule } from '../cadence.ts';
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
 * schedules the scans started, null when unknown (see fabricStatusReport). `from`: where
 * `config`'s source and cadences come from (the `collector` field says).
 */
export function createSummaryBuilder(
  db: Db,
  names: NameBook,
  config: Config,
  from: CollectorSchedule['from'] = 'running',
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
    // Counts with no rate (a first snapshot's totals, a saturated counter) are not over a rate
    // threshold: they are counted apart, so that neither number claims what it did not judge.
    const current = q
      .currentFindingSubjects()
      .filter(
        (f) => (f.subjectType === 'port' || f.subjectType === 'link') && (PM_KINDS(f.kind) || TRAFFIC_KINDS(f.kind)),
      );
    const subjects = (keep: (kind: string) => boolean) =>
      new Set(current.filter((f) => keep(f.kind)).map((f) => f.subjectKey)).size;
    const base = baselineScan(db);
    const sm = smSummary({ db, names, config }, now);
    return {
      generatedAt: now,
      expectedRate: config.expectedRate,
      ...counts(),
      portsOverThreshold: subjects((k) => !isNoRateKind(k)),
      portsErrorsSinceClear: subjects(isNoRateKind),
      portsSaturated: subjects((k) => k.startsWith(SATURATED_KIND)),
      counterRates: base === undefined ? 'none' : base.rated ? 'rated' : 'first-snapshot',
      findingsBySeverity: findings.countCurrentBySeverity(),
      clearedFindings: findings.countCleared(),
      sm,
      lastScans: scans.latestPerKind(),
      completedScans: scans.lastOkPerKind(),
      exampleNames: exampleNames(),
      ncclTrend: nccl.trend(now - 30 * DAY, now),
      ...fabricStatusReport(db, names, config, sm, now, upSince),
      collector: collectorSchedule(config, upSince, from),
    };
  };
}
