import type { NodeType } from './types.ts';

/** What decides which end of a cable is named first. */
export interface EndFacts {
  guid: string;
  port: number;
  /** Node type; unknown nodes rank after switches. */
  type?: NodeType | null;
  /** Tier of the node (`leaf`, `spine`, `core`, `hca`...), when inferred. */
  tier?: string | null;
}

const TYPE_RANK: Record<string, number> = { switch: 0, router: 1 };
const TIER_RANK: Record<string, number> = { leaf: 0, spine: 1, aggregation: 1, core: 2 };

/**
 * What `compareLinkEnds` compares first, as one number: type, then tier. Two ends of equal rank
 * are ordered by GUID, then port. For callers that order many links (the topology's 136k at 45k
 * GPUs) and rank each node once.
 */
export function linkEndRank(type: NodeType | null | undefined, tier: string | null | undefined): number {
  return (TYPE_RANK[type ?? ''] ?? 2) * 4 + (TIER_RANK[tier ?? ''] ?? 3);
}

/**
 * Order of the two ends of a cable, the same in every view (worklist, its CSV, the topology's
 * link panel and lists): **end A is the switch end**, the port a technician walks to; between
 * two switches it is the one lower in the tree (leaf before spine before core), then the lower
 * GUID and port, so that the order never depends on which end a tool or a table listed first.
 * Negative when `x` comes first.
 */
export function compareLinkEnds(x: EndFacts, y: EndFacts): number {
  const tx = TYPE_RANK[x.type ?? ''] ?? 2;
  const ty = TYPE_RANK[y.type ?? ''] ?? 2;
  if (tx !== ty) return tx - ty;
  const rx = TIER_RANK[x.tier ?? ''] ?? 3;
  const ry = TIER_RANK[y.tier ?? ''] ?? 3;
  if (rx !== ry) return rx - ry;
  if (x.guid !== y.guid) return x.guid < y.guid ? -1 : 1;
  return x.port - y.port;
}

/** The two ends as end A, end B (see {@link compareLinkEnds}). */
export function orderLinkEnds<T>(a: T, b: T, facts: (end: T) => EndFacts): [T, T] {
  return compareLinkEnds(facts(a), facts(b)) <= 0 ? [a, b] : [b, a];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Where a cable's end A is, for the walking order: rack, rack unit, port. */
export interface WalkStop {
  rack?: string | null;
  u?: number | null;
  name: string;
  port: number;
}

/**
 * The order a technician walks a list of cables in: by the rack of end A (natural order, so R2
 * comes before R10), then its rack unit, then the switch name and the port. Ends without a rack
 * come last, without a U last within their rack. Negative when `x` comes first.
 */
export function compareWalkOrder(x: WalkStop, y: WalkStop): number {
  const rackX = x.rack ?? null;
  const rackY = y.rack ?? null;
  if (rackX !== rackY) {
    if (rackX === null) return 1;
    if (rackY === null) return -1;
    const c = collator.compare(rackX, rackY);
    if (c !== 0) return c;
  }
  const ux = x.u ?? Number.POSITIVE_INFINITY;
  const uy = y.u ?? Number.POSITIVE_INFINITY;
  if (ux !== uy) return ux < uy ? -1 : 1;
  return collator.compare(x.name, y.name) || x.port - y.port;
}
