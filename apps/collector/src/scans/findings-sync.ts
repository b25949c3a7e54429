import {
  eventHolds,
  eventWindowMs,
  findingNature,
  subjectKey,
  unobservedStep,
  type DeepPartial,
  type HealthThresholds,
  type Verdict,
} from '@ibwatch/fabric';
import type { FindingRow } from '@ibwatch/fabric';
import type { FindingKey, FindingsRepo } from '../db/findings-repo.ts';

export { PM_KINDS, SM_KINDS, TOPOLOGY_KINDS } from '../queries/finding-kinds.ts';

export interface SyncResult {
  opened: number;
  updated: number;
  resolved: number;
  /** Findings this scan no longer observed for the first time (cleared at this scan's time). */
  cleared: number;
  /** Subject keys of the findings opened, refreshed, cleared or resolved (what derived colours depend on). */
  changedSubjects: string[];
}

const SUBJECT_TYPE: Record<Verdict['subject']['kind'], FindingRow['subjectType']> = {
  port: 'port',
  link: 'link',
  sm: 'sm',
  run: 'run',
  node: 'fabric',
};

const subjectOf = (key: string) => key.slice(key.indexOf('|') + 1);

/**
 * Applies one scan's verdicts to the stored findings, for the finding kinds this scan
 * evaluated (`inScope`); findings of other kinds are untouched (no data is not a clean
 * observation). A verdict opens a finding or refreshes the active one with the same kind and
 * subject (a cleared one becomes current again). An active finding without a verdict is
 * cleared by the first such scan and resolved by the first one after it has stayed cleared
 * for `resolveAfterMs` ({@link unobservedStep}): a condition still observed never resolves by
 * itself. An event kind ({@link findingNature}) is not cleared by a scan that merely did not see
 * it happen again: it holds for its window after it last happened ({@link eventWindowMs}, the
 * flap window from `thresholds`) and is then cleared as `window-ended`. A finding someone marked
 * fixed while it was still observed is cleared by this scan either way: if the problem persists,
 * the verdict opens a new finding. A change of severity is written to the finding's history.
 */
export function syncFindings(
  repo: FindingsRepo,
  verdicts: readonly Verdict[],
  inScope: (kind: string) => boolean,
  at: number,
  resolveAfterMs: number,
  thresholds?: DeepPartial<HealthThresholds>,
): SyncResult {
  const result: SyncResult = { opened: 0, updated: 0, resolved: 0, cleared: 0, changedSubjects: [] };
  const active = new Map<string, FindingKey>();
  const resolvedCurrent: FindingKey[] = [];
  for (const f of repo.liveKeys()) {
    if (!inScope(f.kind)) continue;
    if (f.state === 'resolved') resolvedCurrent.push(f);
    else active.set(`${f.kind}|${f.subjectKey}`, f);
  }
  const seen = new Set<string>();
  for (const v of verdicts) {
    const sk = subjectKey(v.subject);
    const key = `${v.kind}|${sk}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const have = active.get(key);
    const payload = { severity: v.severity, title: v.title, short: v.short ?? null, evidence: v.evidence };
    result.changedSubjects.push(sk);
    if (have) {
      if (have.clearedAt !== null) repo.addEvent(have.id, at, 'observed-again');
      if (have.severity !== v.severity)
        repo.addEvent(have.id, at, 'severity', null, `${have.severity} → ${v.severity}`);
      repo.touch(have.id, payload, at);
      result.updated++;
    } else {
      repo.open(
        { ...payload, kind: v.kind, subjectType: SUBJECT_TYPE[v.subject.kind], subjectKey: sk, subject: v.subject },
        at,
      );
      result.opened++;
    }
  }
  const clear: number[] = [];
  const ended: number[] = [];
  for (const f of resolvedCurrent) {
    clear.push(f.id);
    result.changedSubjects.push(f.subjectKey);
  }
  for (const [key, f] of active) {
    if (seen.has(key)) continue;
    if (f.clearedAt === null && eventHolds(f.kind, f.lastSeen, at, eventWindowMs(f.kind, thresholds))) continue;
    const step = unobservedStep(f.clearedAt, at, resolveAfterMs);
    if (step === 'wait') continue;
    if (f.clearedAt === null) {
      (findingNature(f.kind) === 'event' ? ended : clear).push(f.id);
      result.cleared++;
    }
    if (step === 'resolve') {
      repo.resolve(f.id, at);
      result.resolved++;
    }
    result.changedSubjects.push(subjectOf(key));
  }
  repo.markCleared(clear, at);
  repo.markCleared(ended, at, 'window-ended');
  return result;
}
