import type { Db } from '../db/open-db.ts';
import { worstHealth } from '../queries/link-health.ts';
import { colouredOrAtEnds, linkHealthWriter, linksAtEnds, observedLinkFindings } from '../db/link-health-repo.ts';

/** The port ends (`<guid>/<n>`) a finding's subject key names. */
export function endsOfSubjectKey(key: string): string[] {
  // Subject keys: `port:<guid>/<n>` and `link:<guid>/<n>|<guid>/<n>` (either order).
  return key.replace(/^(port|link):/, '').split(/[|~,]/);
}

/**
 * Colours links from the findings the latest scans observed (cleared_at NULL, whatever their
 * lifecycle state: a finding being resolved or awaiting its clean period says nothing about
 * now): down > degraded > errors > ok, with the worst finding's short reason. Info findings (a
 * fresh link in its grace period) do not colour. With `onlyEnds`, only the links at those port
 * ends are recomputed: a PM sweep passes the ends of the findings it opened, refreshed, cleared
 * or resolved (a link's colour depends on nothing else), instead of joining all 30k links to
 * their ports every minute.
 */
export function refreshLinkHealth(db: Db, onlyEnds?: Iterable<string>): void {
  // ibdiagnet's own findings about a port (a missing port hierarchy, a counter that rose
  // during its run) say nothing of the link's health now: ibwatch's rules judge the same run.
  const open = observedLinkFindings(db);
  const byEnd = new Map<string, { kind: string; reason: string }[]>();
  for (const f of open) {
    for (const end of endsOfSubjectKey(f.key)) {
      const list = byEnd.get(end) ?? [];
      list.push({ kind: f.kind, reason: f.reason });
      byEnd.set(end, list);
    }
  }
  // Only links that are coloured now or have a finding at an end can change: joining all 30k
  // links to their ports on every sweep cost more than the rest of the link work.
  const pairs = (keys: Iterable<string>) =>
    [...keys].map((e) => {
      const slash = e.lastIndexOf('/');
      return [e.slice(0, slash), Number(e.slice(slash + 1))];
    });
  const links = onlyEnds ? linksAtEnds(db, pairs(onlyEnds)) : colouredOrAtEnds(db, pairs(byEnd.keys()));
  const update = linkHealthWriter(db);
  const none: { kind: string; reason: string }[] = [];
  for (const l of links) {
    const best = worstHealth([...(byEnd.get(l.a) ?? none), ...(byEnd.get(l.b) ?? none)]);
    // Runs after every sweep: only the few links that changed are written.
    if (l.health !== best.health || l.reason !== best.reason) update(l.id, best.health, best.reason);
  }
}
