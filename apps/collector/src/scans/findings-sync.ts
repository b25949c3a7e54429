import { subjectKey, type Verdict } from '@ibwatch/fabric';
import type { FindingRow } from '@ibwatch/fabric';
import type { FindingsRepo } from '../db/findings-repo.ts';

export interface SyncResult {
  opened: number;
  updated: number;
  resolved: number;
  /** Active findings without a verdict this sweep, one clean sweep nearer to resolving. */
  cleaned: number;
  /** Subject keys of the findings opened, refreshed or resolved (what derived colours depend on). */
  changedSubjects: string[];
}

const SUBJECT_TYPE: Record<Verdict['subject']['kind'], FindingRow['subjectType']> = {
  port: 'port',
  link: 'link',
  sm: 'sm',
  run: 'run',
  node: 'fabric',
};

/**
 * Applies one sweep's verdicts to the stored findings, for the finding kinds this sweep
 * evaluated (`inScope`): a verdict opens a finding or refreshes the open one with the same
 * kind and subject; an active finding without a verdict counts a clean sweep and resolves
 * after `resolveAfter` of them. Findings of kinds this sweep did not look at are untouched.
 */
export function syncFindings(
  repo: FindingsRepo,
  verdicts: readonly Verdict[],
  inScope: (kind: string) => boolean,
  at: number,
  resolveAfter: number,
): SyncResult {
  const result: SyncResult = { opened: 0, updated: 0, resolved: 0, cleaned: 0, changedSubjects: [] };
  const active = new Map<string, { id: number; cleanSweeps: number }>();
  for (const f of repo.activeKeys()) if (inScope(f.kind)) active.set(`${f.kind}|${f.subjectKey}`, f);
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
  const clean: number[] = [];
  for (const [key, f] of active) {
    if (seen.has(key)) continue;
    if (f.cleanSweeps + 1 >= resolveAfter) {
      repo.resolve(f.id, at);
      result.resolved++;
      result.changedSubjects.push(key.slice(key.indexOf('|') + 1));
    } else clean.push(f.id);
  }
  repo.markClean(clean);
  result.cleaned = clean.length;
  return result;
}

/** Finding kinds each scan kind evaluates (and so may resolve). */
export const PM_KINDS = (k: string) =>
  ['symbol-errors', 'link-error-recovery', 'link-downed', 'congestion', 'link-flapping'].includes(k) ||
  k.startsWith('counter-rate:') ||
  k.startsWith('counter-saturated:');
export const TOPOLOGY_KINDS = (k: string) =>
  k.startsWith('link-degraded-') || k === 'link-down' || k.startsWith('topology-');
export const SM_KINDS = (k: string) => k.startsWith('sm-');
