import type { FindingState, Severity } from './api.ts';
import type { Guid, PortRef } from './types.ts';

// Severity and FindingState are part of the HTTP API contract (api.ts); re-exported here so
// analysis code imports them from one place.
export type { FindingState, Severity };

/**
 * Verdicts and findings. A *verdict* is what one analysis rule says about one subject in one
 * sweep; a *finding* is the persistent record the collector stores, opened by the first verdict.
 *
 * State and lifecycle are kept apart. Whether a condition holds *now* is what the latest scan
 * that evaluated its kind observed: a scan without the verdict *clears* the finding (it is no
 * longer shown as broken, "cleared at T"), a scan with it makes it current again. The lifecycle
 * (open, acknowledged, resolved) is history about the finding: a finding resolves by itself only
 * after it has stayed cleared for a clean *period* (time, not a count of scans, whose meaning
 * would depend on the cadence), and a condition still observed never resolves by itself.
 */

/** Higher is worse; use for sorting. */
export const SEVERITY_RANK: Record<Severity, number> = { critical: 4, major: 3, minor: 2, info: 1 };

/** What a verdict is about. `sm` without guid = the subnet as a whole (no master, split brain). */
export type FindingSubject =
  | { kind: 'port'; port: PortRef }
  | { kind: 'link'; a: PortRef; b: PortRef }
  | { kind: 'node'; guid: Guid }
  | { kind: 'sm'; guid?: Guid }
  | { kind: 'run'; runId: string };

/** JSON-safe evidence: bigint deltas are carried as decimal strings. */
export type EvidenceValue = string | number | boolean | null | EvidenceValue[] | { [k: string]: EvidenceValue };
export type Evidence = Record<string, EvidenceValue>;

/** One rule's judgement about one subject in one sweep. */
export interface Verdict {
  /** Rule id, e.g. `symbol-errors`, `link-degraded-width`, `sm-split-brain`. */
  kind: string;
  severity: Severity;
  subject: FindingSubject;
  /** Plain-words title for people: `Symbol errors at 1.2e-11 BER on leaf-01 port 3`. */
  title: string;
  /** Compact reason for worklists: `speed 400G->200G`, `symbol errors 1.2e-11 BER (340/h)`. */
  short?: string;
  /** The numbers behind the verdict: counter, delta, interval, rate, threshold, ... */
  evidence: Evidence;
}

/** A stored finding. `key` identifies it across sweeps (kind + subject). */
export interface Finding extends Verdict {
  key: string;
  firstSeen: string;
  lastSeen: string;
  state: FindingState;
  /** Time of the first evaluated sweep that no longer saw the condition; absent while it is seen. */
  clearedAt?: string;
  resolvedAt?: string;
}

/** What an evaluated scan that did not observe a finding's condition does to the finding. */
export type UnobservedStep = 'clear' | 'resolve' | 'wait';

/**
 * The lifecycle rule for a scan that evaluated a finding's kind without a verdict for it: the
 * first such scan clears it; once it has stayed cleared for `resolveAfterMs`, the next such scan
 * resolves it (with 0, at once). Times are epoch ms. A scan that did not evaluate the kind must
 * not call this: no data is not a clean observation.
 */
export function unobservedStep(clearedAt: number | null, at: number, resolveAfterMs: number): UnobservedStep {
  if (clearedAt === null) return resolveAfterMs <= 0 ? 'resolve' : 'clear';
  return at - clearedAt >= resolveAfterMs ? 'resolve' : 'wait';
}

/** `nodeGuid/portNum`, the key used for ports everywhere in this package. */
export function portKey(p: PortRef): string {
  return `${p.nodeGuid}/${p.portNum}`;
}

/** Key of a physical link, independent of which end is named first. */
export function linkKey(a: PortRef, b: PortRef): string {
  const ka = portKey(a);
  const kb = portKey(b);
  return ka < kb ? `${ka}~${kb}` : `${kb}~${ka}`;
}

/** Stable key of a subject. */
export function subjectKey(s: FindingSubject): string {
  switch (s.kind) {
    case 'port':
      return `port:${portKey(s.port)}`;
    case 'link':
      return `link:${linkKey(s.a, s.b)}`;
    case 'node':
      return `node:${s.guid}`;
    case 'sm':
      return `sm:${s.guid ?? 'subnet'}`;
    case 'run':
      return `run:${s.runId}`;
  }
}

/** Stable key of a verdict/finding: the same problem on the same subject keeps its key. */
export function findingKey(v: Pick<Verdict, 'kind' | 'subject'>): string {
  return `${v.kind}|${subjectKey(v.subject)}`;
}

export interface MergeOptions {
  /** Sweep time (ISO-8601); becomes firstSeen/lastSeen/clearedAt/resolvedAt. */
  now: string;
  /** Resolve a finding once it has stayed cleared this long (ms). Default one hour. */
  resolveAfterMs?: number;
  /**
   * Which findings this sweep actually evaluated. A sweep without SM data must not count as
   * "clean" for SM findings; return false to leave a finding untouched. Default: all.
   */
  evaluated?: (f: Finding) => boolean;
}

export interface MergeResult {
  /** New findings to insert (state open). */
  insert: Finding[];
  /** Existing findings seen again (new lastSeen/evidence/severity, clearedAt dropped) or just cleared. */
  update: Finding[];
  /** Findings that became resolved in this sweep (state resolved, resolvedAt set). */
  resolve: Finding[];
}

/**
 * Merge one sweep's verdicts into the open findings. `open` holds findings in state open or
 * acknowledged (resolved ones are history: a problem that comes back opens a new finding).
 * Acknowledged findings keep their state while the problem persists; a cleared finding seen
 * again is current again (same finding). Findings without a verdict follow
 * {@link unobservedStep}. Duplicate verdicts for one key keep the worst severity. Linear in
 * open + verdicts.
 */
export function mergeFindings(open: readonly Finding[], verdicts: readonly Verdict[], opts: MergeOptions): MergeResult {
  const resolveAfter = opts.resolveAfterMs ?? 3_600_000;
  const nowMs = Date.parse(opts.now);
  const byKey = new Map<string, Verdict>();
  for (const v of verdicts) {
    const k = findingKey(v);
    const seen = byKey.get(k);
    if (!seen || SEVERITY_RANK[v.severity] > SEVERITY_RANK[seen.severity]) byKey.set(k, v);
  }
  const out: MergeResult = { insert: [], update: [], resolve: [] };
  const matched = new Set<string>();
  for (const f of open) {
    if (f.state === 'resolved') continue;
    const v = byKey.get(f.key);
    if (v) {
      matched.add(f.key);
      const { clearedAt: _cleared, ...seen } = f;
      out.update.push({ ...seen, ...v, key: f.key, firstSeen: f.firstSeen, lastSeen: opts.now, state: f.state });
      continue;
    }
    if (opts.evaluated && !opts.evaluated(f)) continue;
    const cleared = f.clearedAt === undefined ? null : Date.parse(f.clearedAt);
    const step = unobservedStep(cleared, nowMs, resolveAfter);
    const clearedAt = f.clearedAt ?? opts.now;
    if (step === 'resolve') out.resolve.push({ ...f, clearedAt, state: 'resolved', resolvedAt: opts.now });
    else if (step === 'clear') out.update.push({ ...f, clearedAt });
  }
  for (const [k, v] of byKey) {
    if (matched.has(k)) continue;
    out.insert.push({ ...v, key: k, firstSeen: opts.now, lastSeen: opts.now, state: 'open' });
  }
  return out;
}

/** Sort verdicts/findings worst first, then by key for a stable order. */
export function sortBySeverity<T extends Verdict>(items: T[]): T[] {
  return items.sort(
    (x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity] || (findingKey(x) < findingKey(y) ? -1 : 1),
  );
}
