/**
 * What the wall screen, `/api/summary`, `/metrics` and `ibwatch status` say about the fabric
 * as a whole: how current each scan kind's data is, what is broken now (one row per physical
 * cable, SM problem or stale scan kind), what was fixed lately, and one status word. Pure: the
 * collector reads the findings and scans and passes them in.
 *
 * "Now" means what the latest scan that covered a subject observed: a finding counts only while
 * it is not cleared (`clearedAt` null), whatever its lifecycle state. Info findings (a fresh
 * link in its grace period) are not problems.
 */
import type {
  BrokenRow,
  FabricStatus,
  FabricStatusWord,
  FindingState,
  FixedRow,
  LinkEnd,
  RecentEventRow,
  ScanFreshness,
  ScanKind,
  Severity,
  SmSummary,
} from './api.ts';
import { SEVERITY_RANK, type FindingSubject } from './findings.ts';
import { findingNature, isBrokenNow } from './finding-lifecycle.ts';
import type { FabricLink, PortRef } from './types.ts';
import { orderLinkEnds, type EndFacts } from './link-ends.ts';
import { cableOf, isNoRateKind, PHYSICAL_KINDS } from './worklist.ts';

/** A scan kind is stale after this many intervals without a success, or this many failures in a row. */
export const STALE_AFTER_INTERVALS = 3;

/** What {@link scanFreshness} needs of one scheduled scan kind. Times are epoch ms. */
export interface FreshnessInput {
  kind: ScanKind;
  intervalMs: number;
  /** End of the last successful (ok or partial) scan of this kind. */
  lastOkAt: number | null;
  /** Failed scans of this kind after its last success. */
  failuresInRow: number;
  lastError: string | null;
  /** Start of the first scan of this kind ever recorded (null: none). */
  firstAttemptAt: number | null;
  /** When the collector that schedules the scans started, if known. */
  upSince: number | null;
  /** Added to the three intervals: the schedule's random start delay. */
  slackMs?: number;
}

/** `45 s`, `4 min`, `3 h`, `2 d`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

/**
 * Fresh, stale or pending. Stale when the last success is older than three intervals (plus
 * slack), when the last three attempts failed, or when there never was a success and the first
 * attempt (or the collector's start) is that old; a scan hanging on a tool makes no attempt
 * finish, so its kind goes stale by age alone.
 */
export function scanFreshness(i: FreshnessInput, now: number): ScanFreshness {
  const limit = STALE_AFTER_INTERVALS * i.intervalMs + (i.slackMs ?? 0);
  const every = `every ${formatAge(i.intervalMs)}`;
  const base = {
    kind: i.kind,
    intervalMs: i.intervalMs,
    lastOkAt: i.lastOkAt,
    failuresInRow: i.failuresInRow,
    lastError: i.lastError,
  };
  const failed = i.lastError ? `: ${i.lastError}` : '';
  if (i.failuresInRow >= STALE_AFTER_INTERVALS)
    return { ...base, state: 'stale', reason: `failed ${i.failuresInRow} times in a row${failed}` };
  if (i.lastOkAt !== null) {
    const age = now - i.lastOkAt;
    const reason = `last success ${formatAge(age)} ago (${every})`;
    return { ...base, state: age > limit ? 'stale' : 'fresh', reason };
  }
  const since = i.upSince ?? i.firstAttemptAt;
  if (since !== null && now - since <= limit)
    return { ...base, state: 'pending', reason: `waiting for the first scan (${every})` };
  return { ...base, state: 'stale', reason: `no successful scan yet${failed}` };
}

/** A stored finding as the status functions need it. Times are epoch ms. */
export interface StatusFinding {
  id: number;
  kind: string;
  severity: Severity;
  state: FindingState;
  subject: FindingSubject;
  title: string;
  short: string | null;
  firstSeen: number;
  /** When a scan last observed it (for an event: when it last happened). */
  lastSeen: number;
  clearedAt: number | null;
  resolvedAt: number | null;
  acknowledgedAt: number | null;
}

/** How to place port findings on cables and name the ends. */
export interface CableNaming {
  /** The link a port is an end of, if known. */
  linkOf: (p: PortRef) => FabricLink | undefined;
  end: (p: PortRef) => LinkEnd;
  /** Node type and tier of an end: the switch end is named first, as on the worklist ({@link orderLinkEnds}). */
  endFacts?: (p: PortRef) => Pick<EndFacts, 'type' | 'tier'>;
}

/** A cable's ends, switch end first when their facts are known. */
function cableEnds(refs: readonly PortRef[], naming: CableNaming): LinkEnd[] {
  const facts = naming.endFacts;
  const ordered =
    refs.length === 2 && facts
      ? orderLinkEnds(refs[0]!, refs[1]!, (r) => ({ guid: r.nodeGuid, port: r.portNum, ...facts(r) }))
      : refs;
  return ordered.map(naming.end);
}

export interface BrokenNowInput extends CableNaming {
  /** Findings of port, link and SM subjects; only those not cleared count. */
  findings: readonly StatusFinding[];
  freshness: readonly ScanFreshness[];
  sm: SmSummary;
  now: number;
}

const isProblem = isBrokenNow;
// An event that happened again after its acknowledgement is news nobody has seen yet.
const isAcknowledged = (f: StatusFinding) => f.state === 'acknowledged' && findingNature(f.kind) === 'condition';
const worst = (xs: readonly { severity: Severity }[]): Severity =>
  xs.reduce<Severity>((w, x) => (SEVERITY_RANK[x.severity] > SEVERITY_RANK[w] ? x.severity : w), 'info');
const bySeverity = <T extends { severity: Severity }>(xs: readonly T[]): T[] =>
  [...xs].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
const uniqueReasons = (fs: readonly StatusFinding[]) => [...new Set(bySeverity(fs).map((f) => f.short ?? f.title))];

/** `leaf-01 port 33 ↔ spine-02 port 5`. */
export function cableTitle(ends: readonly LinkEnd[]): string {
  return ends.map((e) => `${e.name} port ${e.port}`).join(' ↔ ');
}

interface CableGroup {
  key: string;
  refs: PortRef[];
  findings: StatusFinding[];
}

function groupCables(findings: readonly StatusFinding[], linkOf: CableNaming['linkOf']): Map<string, CableGroup> {
  const groups = new Map<string, CableGroup>();
  for (const f of findings) {
    const c = cableOf(f.subject, linkOf);
    if (!c) continue;
    let g = groups.get(c.key);
    if (!g) groups.set(c.key, (g = { key: c.key, refs: c.refs, findings: [] }));
    g.findings.push(f);
  }
  return groups;
}

/** The key of the worklist entry for a cable, when its findings include a kind the worklist lists. */
const worklistKeyOf = (g: CableGroup) => (g.findings.some((f) => PHYSICAL_KINDS.includes(f.kind)) ? g.key : null);

const SM_STATUS_SEVERITY: Record<string, Severity> = {
  'no-master': 'critical',
  'split-brain': 'critical',
  rogue: 'critical',
};
const KIND_ORDER: Record<BrokenRow['kind'], number> = { sm: 0, scan: 1, cable: 2 };

/**
 * The "broken now" list: one row per physical cable with a current problem (both ends' and the
 * link's findings merged, as the worklist merges them), one per current SM finding (or one for
 * an SM status that is not ok when no finding says why), one per stale scan kind. Worst
 * first; within a severity SM before scans before cables, newest first.
 */
export function brokenNow(input: BrokenNowInput): BrokenRow[] {
  const rows: BrokenRow[] = [];
  const current = input.findings.filter(isProblem);
  for (const g of groupCables(current, input.linkOf).values()) {
    const ends = cableEnds(g.refs, input);
    rows.push({
      kind: 'cable',
      key: g.key,
      severity: worst(g.findings),
      title: cableTitle(ends),
      reasons: uniqueReasons(g.findings),
      since: Math.min(...g.findings.map((f) => f.firstSeen)),
      acknowledged: g.findings.every(isAcknowledged),
      ends,
      worklistKey: worklistKeyOf(g),
      findingIds: g.findings.map((f) => f.id),
    });
  }
  const sm = current.filter((f) => f.subject.kind === 'sm');
  for (const f of sm)
    rows.push({
      kind: 'sm',
      key: `${f.kind}|sm:${f.subject.kind === 'sm' ? (f.subject.guid ?? 'subnet') : ''}`,
      severity: f.severity,
      title: f.short ?? f.kind,
      reasons: [f.title],
      since: f.firstSeen,
      acknowledged: isAcknowledged(f),
      ends: [],
      worklistKey: null,
      findingIds: [f.id],
    });
  if (sm.length === 0 && input.sm.status !== 'ok' && input.sm.status !== 'unknown')
    rows.push({
      kind: 'sm',
      key: 'sm:status',
      severity: SM_STATUS_SEVERITY[input.sm.status] ?? 'major',
      title: `SM status ${input.sm.status}`,
      reasons: [`the latest SM scan says ${input.sm.status}`],
      since: input.sm.lastChangeAt ?? input.now,
      acknowledged: false,
      ends: [],
      worklistKey: null,
      findingIds: [],
    });
  for (const s of input.freshness)
    if (s.state === 'stale')
      rows.push({
        kind: 'scan',
        key: s.kind,
        severity: 'major',
        title: `${s.kind} scans stale`,
        reasons: [s.reason],
        since: s.lastOkAt ?? input.now,
        acknowledged: false,
        ends: [],
        worklistKey: null,
        findingIds: [],
      });
  return rows.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      b.since - a.since ||
      (a.key < b.key ? -1 : 1),
  );
}

export interface RecentlyFixedInput extends CableNaming {
  /**
   * Findings of port, link and SM subjects that are current, or were cleared or resolved in the
   * window: a cable with a current finding is broken now, not fixed.
   */
  findings: readonly StatusFinding[];
  now: number;
  /** Default 24 h. */
  windowMs?: number;
  /** Default 12. */
  limit?: number;
}

/**
 * Cables and SM problems that were broken (minor or worse) and no longer are: no finding on them
 * is observed now, and the latest condition was cleared (or marked fixed) within the window.
 * Events ({@link findingNature}) never make a fix: they go to {@link recentEvents}. Newest first.
 */
export function recentlyFixed(input: RecentlyFixedInput): FixedRow[] {
  const from = input.now - (input.windowMs ?? 86_400_000);
  const out: FixedRow[] = [];
  const add = (kind: FixedRow['kind'], key: string, all: StatusFinding[], ends: LinkEnd[], title: string) => {
    // Info findings (grace period) were never problems: they neither make nor keep a fix. Counts
    // with no rate (a first snapshot) end when rates take over or the counters are cleared, which
    // repairs nothing.
    const problems = all.filter((f) => f.severity !== 'info' && !isNoRateKind(f.kind));
    if (problems.some((f) => f.clearedAt === null)) return;
    // Only a condition seen to go away is a repair: an event that aged out was never fixed.
    const fs = problems.filter((f) => findingNature(f.kind) === 'condition');
    if (fs.length === 0) return;
    const clearedAt = Math.max(...fs.map((f) => f.clearedAt ?? f.resolvedAt ?? -Infinity));
    if (!(clearedAt >= from)) return;
    const live = fs.filter((f) => f.state !== 'resolved');
    const state: FindingState =
      live.length === 0 ? 'resolved' : live.some((f) => f.state === 'open') ? 'open' : 'acknowledged';
    const worklistKey = kind === 'cable' && fs.some((f) => PHYSICAL_KINDS.includes(f.kind)) ? key : null;
    // A cable's title names its ends, so its reasons are the short ones; an SM row's title is
    // already the short reason, so its reasons are the findings' titles.
    const reasons = kind === 'cable' ? uniqueReasons(fs) : [...new Set(fs.map((f) => f.title))];
    out.push({ kind, key, title, reasons, clearedAt, state, ends, worklistKey });
  };
  for (const g of groupCables(input.findings, input.linkOf).values()) {
    const ends = cableEnds(g.refs, input);
    add('cable', g.key, g.findings, ends, cableTitle(ends));
  }
  const sm = new Map<string, StatusFinding[]>();
  for (const f of input.findings) {
    if (f.subject.kind !== 'sm') continue;
    const key = `${f.kind}|sm:${f.subject.guid ?? 'subnet'}`;
    sm.set(key, [...(sm.get(key) ?? []), f]);
  }
  for (const [key, fs] of sm) add('sm', key, fs, [], fs[0]!.short ?? fs[0]!.kind);
  return out.sort((a, b) => b.clearedAt - a.clearedAt || (a.key < b.key ? -1 : 1)).slice(0, input.limit ?? 12);
}

/** How an event left "Broken now": its window passed, someone acknowledged it, or marked it fixed. */
function eventEnd(f: StatusFinding): { at: number; how: RecentEventRow['how'] } {
  if (f.clearedAt === null) return { at: f.acknowledgedAt ?? f.lastSeen, how: 'acknowledged' };
  if (f.resolvedAt !== null && f.resolvedAt === f.clearedAt) return { at: f.clearedAt, how: 'marked-fixed' };
  return { at: f.clearedAt, how: 'window-ended' };
}

/**
 * Events ({@link findingNature}: a link went down, a link flapped, the master SM moved) that are
 * no longer broken now and ended within the window, one row per cable or SM subject: what
 * happened, when it last happened, its worst severity and how it ended. Newest first.
 */
export function recentEvents(input: RecentlyFixedInput): RecentEventRow[] {
  const from = input.now - (input.windowMs ?? 86_400_000);
  const out: RecentEventRow[] = [];
  const add = (kind: RecentEventRow['kind'], key: string, all: StatusFinding[], ends: LinkEnd[], title: string) => {
    // A subject still broken now is listed there (a cable whose flap count holds, whose single
    // link-down already ended, is one broken cable, not also a recent event).
    const problems = all.filter((f) => f.severity !== 'info');
    if (problems.some(isBrokenNow)) return;
    const fs = problems.filter((f) => findingNature(f.kind) === 'event' && eventEnd(f).at >= from);
    if (fs.length === 0) return;
    const last = fs.reduce((a, b) => (eventEnd(b).at > eventEnd(a).at ? b : a));
    const reasons = kind === 'cable' ? uniqueReasons(fs) : [...new Set(fs.map((f) => f.title))];
    const worklistKey = kind === 'cable' && fs.some((f) => PHYSICAL_KINDS.includes(f.kind)) ? key : null;
    const end = eventEnd(last);
    const at = Math.max(...fs.map((f) => f.lastSeen));
    out.push({ kind, key, title, reasons, severity: worst(fs), at, endedAt: end.at, how: end.how, ends, worklistKey });
  };
  for (const g of groupCables(input.findings, input.linkOf).values()) {
    const ends = cableEnds(g.refs, input);
    add('cable', g.key, g.findings, ends, cableTitle(ends));
  }
  for (const f of input.findings)
    if (f.subject.kind === 'sm') add('sm', `${f.kind}|sm:${f.subject.guid ?? 'subnet'}`, [f], [], f.short ?? f.kind);
  return out.sort((a, b) => b.at - a.at || (a.key < b.key ? -1 : 1)).slice(0, input.limit ?? 12);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The fabric's status word from the broken-now rows: CRITICAL when any row is critical, else
 * STALE when a scan kind is stale (or there is no fabric data at all), else DEGRADED when
 * anything is broken, else OK. The reasons say how many of what, worst first.
 */
export function fabricStatusOf(rows: readonly BrokenRow[], opts: { hasFabricData: boolean }): FabricStatus {
  const reasons: string[] = [];
  if (!opts.hasFabricData) reasons.push('no fabric data yet: no topology scan or import has completed');
  const critical = rows.filter((r) => r.severity === 'critical');
  for (const r of critical) reasons.push(`${r.title}: ${r.reasons[0] ?? ''}`.replace(/: $/, ''));
  const stale = rows.filter((r) => r.kind === 'scan');
  if (stale.length) reasons.push(`stale data: ${stale.map((r) => r.key).join(', ')} scans`);
  const cables = rows.filter((r) => r.kind === 'cable' && r.severity !== 'critical');
  if (cables.length) reasons.push(`${plural(cables.length, 'cable', 'cables')} with a problem now`);
  const sm = rows.filter((r) => r.kind === 'sm' && r.severity !== 'critical');
  if (sm.length)
    reasons.push(`${plural(sm.length, 'SM problem', 'SM problems')}: ${sm.map((r) => r.title).join(', ')}`);
  let word: FabricStatusWord = 'OK';
  if (critical.length) word = 'CRITICAL';
  else if (stale.length || !opts.hasFabricData) word = 'STALE';
  else if (rows.length) word = 'DEGRADED';
  return { word, reasons };
}

/** Exit code of `ibwatch status`, as Nagios-style check runners read it. */
export const STATUS_EXIT_CODE: Record<FabricStatusWord, number> = { OK: 0, DEGRADED: 1, CRITICAL: 2, STALE: 3 };
