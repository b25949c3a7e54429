import {
  brokenNow,
  fabricStatusOf,
  portKey,
  recentEvents,
  recentlyFixed,
  scanFreshness,
  type BrokenRow,
  type FabricLink,
  type FabricStatus,
  type FixedRow,
  type LinkEnd,
  type PortRef,
  type RecentEventRow,
  type ScanFreshness,
  type SmSummary,
} from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import { createStatusQueries, type StatusQueries } from '../db/status-queries.ts';
import type { NameBook } from '../names.ts';
import { scanIntervals, scheduledKinds } from '../cadence.ts';

/** When this process started: a collector that schedules scans is "up since" then. */
export const PROCESS_STARTED_AT = Date.now();

const FIXED_WINDOW_MS = 86_400_000;

export interface FabricStatusReport {
  fabricStatus: FabricStatus;
  brokenNow: BrokenRow[];
  recentlyFixed: FixedRow[];
  recentEvents: RecentEventRow[];
  freshness: ScanFreshness[];
}

/**
 * The fabric's status as the latest observations have it: freshness of every scheduled scan
 * kind, the broken-now rows, what was fixed and which events ended in the last 24 h, and the status word. `upSince` is
 * when the collector that schedules the scans started (null when unknown, e.g. the CLI reading
 * a database a server writes): before a kind's first success it is pending for three intervals.
 * `cablesAt` answers as the status queries' own does (a caller may keep its answers: keptCablesAt).
 */
export function fabricStatusReport(
  db: Db,
  names: NameBook,
  config: Config,
  sm: SmSummary,
  now: number,
  upSince: number | null,
  cablesAt?: StatusQueries['cablesAt'],
): FabricStatusReport {
  const q = createStatusQueries(db);
  const intervals = scanIntervals(config);
  const freshness = scheduledKinds(config).map((kind) =>
    scanFreshness({ kind, intervalMs: intervals[kind], ...q.scanFacts(kind), upSince, slackMs: config.jitterMs }, now),
  );
  const findings = q.statusFindings(now - FIXED_WINDOW_MS);
  // Only the links at the ends of these findings: a few hundred of 31k at 10k GPUs.
  const ports = new Set<string>();
  for (const f of findings) {
    if (f.subject.kind === 'port') ports.add(portKey(f.subject.port));
    else if (f.subject.kind === 'link') for (const e of [f.subject.a, f.subject.b]) ports.add(portKey(e));
  }
  const { links, ends } = (cablesAt ?? q.cablesAt)([...ports]);
  const linkByPort = new Map<string, FabricLink>();
  for (const l of links) for (const e of [l.a, l.b]) linkByPort.set(portKey(e), l);
  const linkOf = (p: PortRef) => linkByPort.get(portKey(p));
  const end = (p: PortRef): LinkEnd => {
    const facts = ends.get(portKey(p));
    return {
      guid: p.nodeGuid,
      name: names.name(p.nodeGuid, facts?.description),
      port: p.portNum,
      lid: facts?.lid ?? null,
      rack: names.rack(p.nodeGuid),
    };
  };
  const endFacts = (p: PortRef) => {
    const f = ends.get(portKey(p));
    return { type: f?.type ?? null, tier: f?.tier ?? null };
  };
  const rows = brokenNow({ findings, linkOf, end, endFacts, freshness, sm, now });
  return {
    fabricStatus: fabricStatusOf(rows, { hasFabricData: q.hasFabricData() }),
    brokenNow: rows,
    recentlyFixed: recentlyFixed({ findings, linkOf, end, endFacts, now, windowMs: FIXED_WINDOW_MS }),
    recentEvents: recentEvents({ findings, linkOf, end, endFacts, now, windowMs: FIXED_WINDOW_MS }),
    freshness,
  };
}
