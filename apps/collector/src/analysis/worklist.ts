import {
  buildWorklist,
  compareWalkOrder,
  findingKey,
  linkKey,
  type FabricLink,
  type FindingSubject,
  type ImpactIndex,
  type WorklistEntry,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { entryImpact, buildImpactIndex, loadJobBook, type ImpactSettings } from './impact.ts';
import type { NameBook } from '../names.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { REOPEN_WINDOW_DAYS, reopenedCables } from './reopened.ts';
import {
  firstLinkFixSince,
  linkFixesBefore,
  worklistCables,
  worklistLinks,
  worklistNodes,
} from '../db/worklist-queries.ts';

export interface WorklistFilter {
  switch?: string;
  rack?: string;
  severity?: string;
  state?: string;
  /**
   * `rank` (default): most urgent first; `rack`: the walking order, by end A's rack, U and port;
   * `impact`: most running Slurm jobs behind the cable first, then most GPUs, then urgency.
   */
  sort?: 'rank' | 'rack' | 'impact';
}

const FIXED_WINDOW_MS = 7 * 86_400_000;

/**
 * The reseat worklist: physical-link findings (open, acknowledged, and fixed in the last 7
 * days) folded into one entry per cable with both ends, rack, reasons and the action ladder.
 * Links fixed before (resolved findings older than the window) climb the ladder.
 */
export function worklist(
  db: Db,
  names: NameBook,
  filter: WorklistFilter,
  now = Date.now(),
  settings: ImpactSettings = {},
): WorklistEntry[] {
  return filterWorklist(computeWorklist(db, names, now, loadWorklistFabric(db, settings)).entries, filter);
}

/**
 * Entries matching the filter, ranked 1.. by urgency (copies: `entries` may be a shared cache),
 * then in walking order if asked: the rank stays the urgency, so a technician walking the racks
 * still sees which cable matters most.
 */
export function filterWorklist(entries: readonly WorklistEntry[], filter: WorklistFilter): WorklistEntry[] {
  const out: WorklistEntry[] = [];
  for (const e of entries) if (matches(e, filter)) out.push({ ...e, rank: out.length + 1 });
  if (filter.sort === 'rack') out.sort((x, y) => compareWalkOrder(x.a, y.a) || x.rank - y.rank);
  if (filter.sort === 'impact') out.sort(compareImpact);
  return out;
}

/** Most jobs affected first, then most GPUs, then the urgency rank. */
function compareImpact(x: WorklistEntry, y: WorklistEntry): number {
  const jobs = (e: WorklistEntry) => e.impact?.jobs.length ?? 0;
  const gpus = (e: WorklistEntry) => e.impact?.gpus ?? 0;
  return jobs(y) - jobs(x) || gpus(y) - gpus(x) || x.rank - y.rank;
}

/** What the worklist reads of the fabric itself (links, LIDs, nodes, cables). */
export interface WorklistFabric {
  links: FabricLink[];
  lids: Map<string, number>;
  descs: Map<string, { guid: string; description: string; type: string; tier: string | null }>;
  cables: ({ nodeGuid: string; portNum: number } & object)[];
  /** The blast radius index of the same topology. */
  impact: ImpactIndex;
}

/**
 * Loads the fabric side of the worklist: the 31k-link join alone was most of a ~400 ms build at
 * 10k GPUs, and it changes only with a topology scan or import, not with each sweep's findings
 * (WorklistCache keeps it until then).
 */
export function loadWorklistFabric(db: Db, settings: ImpactSettings = {}): WorklistFabric {
  const rows = worklistLinks(db);
  const links: FabricLink[] = rows.map((r) => ({
    a: { nodeGuid: r.ag, portNum: r.ap },
    b: { nodeGuid: r.bg, portNum: r.bp },
  }));
  const lids = new Map<string, number>();
  for (const r of rows) {
    if (r.al !== null) lids.set(`${r.ag}/${r.ap}`, r.al);
    if (r.bl !== null) lids.set(`${r.bg}/${r.bp}`, r.bl);
  }
  const nodes = worklistNodes(db);
  const descs = new Map(nodes.map((n) => [n.guid, n]));
  const cables = worklistCables(db).map((c) => ({
    nodeGuid: c.nodeGuid,
    portNum: c.portNum,
    ...(JSON.parse(c.info) as object),
  }));
  return { links, lids, descs, cables, impact: buildImpactIndex(rows, nodes, settings) };
}

/**
 * The whole worklist as of `now`, unfiltered, and the last time it stays valid as time alone
 * passes (absent writes): when a resolved finding leaves the 7-day window, or a fix
 * becomes a prior fix that climbs the ladder.
 */
export function computeWorklist(
  db: Db,
  names: NameBook,
  now: number,
  fabric: WorklistFabric = loadWorklistFabric(db),
): { entries: WorklistEntry[]; validUntil: number } {
  const repo = createFindingsRepo(db);
  const stored = [...repo.active(), ...repo.list({ state: 'resolved', limit: 100_000, since: now - FIXED_WINDOW_MS })];
  const idByKey = new Map<string, number[]>();
  const findings = stored.map((f) => {
    const subject = f.subject as unknown as FindingSubject;
    const k = findingKey({ kind: f.kind, subject });
    idByKey.set(k, [...(idByKey.get(k) ?? []), f.id]);
    return {
      kind: f.kind,
      severity: f.severity,
      subject,
      title: f.title,
      short: f.short ?? undefined,
      state: f.state,
      ...(f.clearedAt === null ? {} : { clearedAt: new Date(f.clearedAt).toISOString() }),
      firstSeen: f.firstSeen,
      lastSeen: f.lastSeen,
    };
  });
  const times = new Map<string, { first: number; last: number }>();
  const { links, lids, descs, cables } = fabric;
  const jobs = loadJobBook(db);
  const priorFixes = new Map<string, number>();
  for (const r of linkFixesBefore(db, now - FIXED_WINDOW_MS)) {
    const s = JSON.parse(r) as { a: { nodeGuid: string; portNum: number }; b: { nodeGuid: string; portNum: number } };
    const k = linkKey(s.a, s.b);
    priorFixes.set(k, (priorFixes.get(k) ?? 0) + 1);
  }
  // A cable erring again soon after a fix: the fix did not hold, so the next step is due.
  const reopened = reopenedCables(
    db,
    findings.filter((f) => f.state !== 'resolved'),
    links,
    now,
    now - FIXED_WINDOW_MS,
  );
  for (const [k, list] of reopened) priorFixes.set(k, (priorFixes.get(k) ?? 0) + list.length);
  const entries = buildWorklist({
    findings,
    links,
    nodes: [...descs.values()].map((n) => ({
      guid: n.guid,
      type: n.type as 'switch',
      description: n.description,
      numPorts: 0,
    })),
    cables,
    tiers: new Map([...descs.values()].flatMap((n) => (n.tier ? [[n.guid, n.tier] as const] : []))),
    lookup: (g) => ({
      name: names.name(g, descs.get(g)?.description),
      rack: names.rack(g) ?? undefined,
      u: names.u(g) ?? undefined,
    }),
    priorFixes,
  });
  for (const f of stored) {
    const k = findingKey({ kind: f.kind, subject: f.subject as unknown as FindingSubject });
    const t = times.get(k) ?? { first: f.firstSeen, last: f.lastSeen };
    times.set(k, { first: Math.min(t.first, f.firstSeen), last: Math.max(t.last, f.lastSeen) });
  }
  const out: WorklistEntry[] = [];
  for (const e of entries) {
    const [a, b] = e.ends;
    const end = (x: typeof a) => ({
      guid: x!.nodeGuid,
      name: x!.name,
      port: x!.portNum,
      lid: x!.lid ?? lids.get(`${x!.nodeGuid}/${x!.portNum}`) ?? null,
      rack: x!.rack ?? null,
      u: x!.u ?? null,
    });
    const ts = e.findingKeys.map((k) => times.get(k)).filter((t) => t !== undefined);
    const cable = e.ends.map((x) => x.cable).find((c) => c);
    const again = reopened.get(e.key) ?? [];
    const reasons = [...e.reasons];
    for (const r of again)
      reasons.push(
        `erring again ${Math.max(1, Math.round((r.reopenedAt - r.fixedAt) / 3_600_000))} h after the fix of ` +
          new Date(r.fixedAt).toISOString().slice(0, 16).replace('T', ' '),
      );
    const entry: WorklistEntry = {
      rank: 0,
      findingIds: e.findingKeys.flatMap((k) => idByKey.get(k) ?? []),
      linkKey: e.key,
      severity: e.severity,
      state: e.state === 'fixed' ? 'resolved' : e.state,
      a: end(a),
      b: b ? end(b) : null,
      reasons,
      action: e.actions.join(' → '),
      cable: cable
        ? [
            cable.vendor,
            cable.partNumber,
            cable.serialNumber && `S/N ${cable.serialNumber}`,
            cable.lengthM && `${cable.lengthM} m`,
          ]
            .filter(Boolean)
            .join(' ')
        : null,
      firstSeen: Math.min(...ts.map((t) => t.first)),
      lastSeen: Math.max(...ts.map((t) => t.last)),
      clearedAt: e.clearedAt === undefined ? null : Date.parse(e.clearedAt),
      impact: entryImpact(fabric.impact, jobs, e.ends),
      reopenedAfterFix: again,
    };
    out.push(entry);
  }
  out.forEach((e, i) => (e.rank = i + 1));
  // `list(since)` keeps a resolved finding while last_seen >= now - window; `priorFixes` takes
  // a link fix once resolved_at < now - window.
  let edge = Infinity;
  for (const f of stored) if (f.state === 'resolved') edge = Math.min(edge, f.lastSeen);
  const nextFix = firstLinkFixSince(db, now - FIXED_WINDOW_MS);
  if (nextFix !== null) edge = Math.min(edge, nextFix);
  // A counted fix leaves the reopen window: that cable steps back down the ladder.
  let reopenEdge = Infinity;
  for (const list of reopened.values()) for (const r of list) reopenEdge = Math.min(reopenEdge, r.fixedAt);
  if (reopenEdge !== Infinity) edge = Math.min(edge, reopenEdge + REOPEN_WINDOW_DAYS * 86_400_000 - FIXED_WINDOW_MS);
  return { entries: out, validUntil: edge + FIXED_WINDOW_MS };
}

function matches(e: WorklistEntry, f: WorklistFilter): boolean {
  const ends = [e.a, e.b].filter((x) => x !== null);
  if (
    f.switch &&
    !ends.some((x) => x.name.toLowerCase().includes(f.switch!.toLowerCase()) || x.guid === f.switch!.toLowerCase())
  )
    return false;
  if (f.rack && !ends.some((x) => x.rack === f.rack)) return false;
  if (f.severity && e.severity !== f.severity) return false;
  if (f.state && e.state !== f.state) return false;
  return true;
}
