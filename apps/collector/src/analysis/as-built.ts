import {
  validateAsBuilt,
  type AsBuiltLink,
  type BaselineValidationReply,
  type Guid,
  type ValidationLink,
  type ValidationRow,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import { createAsBuiltRepo, nodeFacts, presentLinksWithRate } from '../db/as-built-repo.ts';

/**
 * The fabric as stored now against the as-built, or null when no as-built is set. Rails are the
 * stored ones (a leaf's: the majority rail of its HCAs), as the latest topology scan inferred them.
 */
export function asBuiltRows(db: Db, names: NameBook): { rows: ValidationRow[]; linksNow: number } | null {
  const repo = createAsBuiltRepo(db);
  if (repo.info() === null) return null;
  const built = repo.links();
  const facts = nodeFacts(db);
  const stored = new Map<string, { name: string | null; type: string | null }>();
  for (const l of built) {
    stored.set(l.a.nodeGuid, { name: l.aName, type: l.aType });
    stored.set(l.b.nodeGuid, { name: l.bName, type: l.bType });
  }
  const now = presentLinksWithRate(db);
  const rows = validateAsBuilt(built, now, {
    name: (g) => nameOf(names, facts, stored, g),
    type: (g) => facts.get(g)?.type ?? (stored.get(g)?.type as 'ca' | undefined),
    leafRail: (g) => (facts.get(g)?.type === 'switch' ? (facts.get(g)?.rail ?? undefined) : undefined),
  });
  return { rows, linksNow: now.length };
}

function nameOf(
  names: NameBook,
  facts: ReturnType<typeof nodeFacts>,
  stored: Map<string, { name: string | null }>,
  g: Guid,
): string {
  return names.name(g, facts.get(g)?.description ?? stored.get(g)?.name ?? undefined);
}

/** The printable topology validation report. */
export function validationReport(db: Db, names: NameBook, now = Date.now()): BaselineValidationReply {
  const info = createAsBuiltRepo(db).info();
  const r = asBuiltRows(db, names);
  const facts = nodeFacts(db);
  const built = new Map<string, { name: string | null }>();
  for (const l of createAsBuiltRepo(db).links()) {
    built.set(l.a.nodeGuid, { name: l.aName });
    built.set(l.b.nodeGuid, { name: l.bName });
  }
  const link = (l: AsBuiltLink | null): ValidationLink | null =>
    l && {
      a: { guid: l.a.nodeGuid, port: l.a.portNum, name: nameOf(names, facts, built, l.a.nodeGuid) },
      b: { guid: l.b.nodeGuid, port: l.b.portNum, name: nameOf(names, facts, built, l.b.nodeGuid) },
      width: l.width ?? null,
      speed: l.speed ?? null,
    };
  const counts = { 'missing-link': 0, 'extra-link': 0, 'moved-cable': 0, 'wrong-rail': 0, degraded: 0 };
  for (const row of r?.rows ?? []) counts[row.kind]++;
  return {
    baseline: info,
    linksNow: r?.linksNow ?? presentLinksWithRate(db).length,
    checkedAt: now,
    counts,
    rows: (r?.rows ?? []).map((x) => ({ kind: x.kind, asBuilt: link(x.asBuilt), now: link(x.now), detail: x.detail })),
  };
}
