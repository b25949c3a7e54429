import { cableOf, PHYSICAL_KINDS, portKey, type FabricLink, type FindingSubject, type PortRef } from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import { portAndLinkFixesSince } from '../db/worklist-queries.ts';

/** A fix of a cable (its findings resolved) followed by the cable erring again. */
export interface Reopening {
  fixedAt: number;
  reopenedAt: number;
}

/** A cable whose findings come back within this many days of a fix climbs the action ladder. */
export const REOPEN_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;
/** Findings of one cable resolved within this of each other are one fix (both ends, one reseat). */
const ONE_FIX_MS = 3_600_000;

/**
 * Per cable key with an active physical finding: the fixes of the last
 * {@link REOPEN_WINDOW_DAYS} days after which the cable erred again within that window (a
 * physical finding on it first seen after the fix), oldest first. A link fix older than
 * `priorBefore` is left out: the worklist already counts it as a prior fix (`linkFixesBefore`).
 */
export function reopenedCables(
  db: Db,
  active: readonly { kind: string; subject: FindingSubject; firstSeen: number }[],
  links: readonly FabricLink[],
  now: number,
  priorBefore: number,
): Map<string, Reopening[]> {
  const out = new Map<string, Reopening[]>();
  const fixes = portAndLinkFixesSince(db, now - REOPEN_WINDOW_DAYS * DAY_MS).filter((f) =>
    PHYSICAL_KINDS.includes(f.kind),
  );
  if (fixes.length === 0) return out;
  const linkByPort = new Map<string, FabricLink>();
  for (const l of links) {
    linkByPort.set(portKey(l.a), l);
    linkByPort.set(portKey(l.b), l);
  }
  const linkOf = (p: PortRef) => linkByPort.get(portKey(p));
  // When each episode of a cable started: its active findings' and its fixed findings' first sightings.
  const starts = new Map<string, number[]>();
  const addStart = (key: string, at: number) => starts.set(key, [...(starts.get(key) ?? []), at]);
  for (const f of active) {
    if (!PHYSICAL_KINDS.includes(f.kind)) continue;
    const c = cableOf(f.subject, linkOf);
    if (c) addStart(c.key, f.firstSeen);
  }
  const fixTimes = new Map<string, number[]>();
  for (const f of fixes) {
    const c = cableOf(JSON.parse(f.subject) as FindingSubject, linkOf);
    if (!c || !starts.has(c.key)) continue;
    addStart(c.key, f.firstSeen);
    if (f.subjectType === 'link' && f.resolvedAt < priorBefore) continue;
    fixTimes.set(c.key, [...(fixTimes.get(c.key) ?? []), f.resolvedAt]);
  }
  for (const [key, times] of fixTimes) {
    const merged: number[] = [];
    for (const t of times.sort((a, b) => a - b)) if (!merged.length || t - merged.at(-1)! > ONE_FIX_MS) merged.push(t);
    const list: Reopening[] = [];
    for (const fixedAt of merged) {
      const after = starts.get(key)!.filter((s) => s > fixedAt && s - fixedAt <= REOPEN_WINDOW_DAYS * DAY_MS);
      if (after.length) list.push({ fixedAt, reopenedAt: Math.min(...after) });
    }
    if (list.length) out.set(key, list);
  }
  return out;
}
