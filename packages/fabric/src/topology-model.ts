import { linkKey } from './findings.ts';
import type { FabricLink, Guid } from './types.ts';

/**
 * Fat-tree model inferred from the graph alone (no naming convention needed): HCAs are the
 * CAs, leaves are switches one hop from an HCA, spines two hops, cores three or more. SHARP
 * Aggregation Nodes are CAs living inside a switch (`Mellanox Technologies Aggregation Node`,
 * SystemImageGUID = the switch's; on Quantum-2 they hang off port 65 of the *spine*), so they
 * must not seed the search or every spine would look like a leaf.
 */
export type FabricTier = 'hca' | 'leaf' | 'spine' | 'core' | 'aggregation' | 'unknown';
export type LinkTier = 'hca-leaf' | 'leaf-spine' | 'spine-core' | 'other';

export interface TopologyModel {
  tiers: Map<Guid, FabricTier>;
  /** Keyed by {@link linkKey}. */
  linkTiers: Map<string, LinkTier>;
  /** Rail of each HCA whose description ends in `mlx5_N`. */
  rails: Map<Guid, number>;
  /** Majority rail of each leaf's HCAs and the share of HCAs on it (1 = pure rail leaf). */
  leafRails: Map<Guid, { rail: number; share: number; hcas: number }>;
  counts: Record<FabricTier, number>;
}

const TIER_RANK: Record<FabricTier, number> = { hca: 0, leaf: 1, spine: 2, core: 3, aggregation: -1, unknown: -2 };

/** Tier of a link between nodes of tiers `x` and `y` (what `inferTopology` puts in `linkTiers`). */
export function linkTierOf(x: FabricTier | undefined, y: FabricTier | undefined): LinkTier {
  if (!x || !y) return 'other';
  const [lo, hi] = TIER_RANK[x] <= TIER_RANK[y] ? [x, y] : [y, x];
  if (lo === 'hca' && hi === 'leaf') return 'hca-leaf';
  if (lo === 'leaf' && hi === 'spine') return 'leaf-spine';
  if (lo === 'spine' && hi === 'core') return 'spine-core';
  return 'other';
}

/** The link list each model was inferred from (see {@link linkTiersOf}). */
const builtFrom = new WeakMap<TopologyModel, readonly FabricLink[]>();

/**
 * `model.linkTiers` of each link of `links`, by index. For the very list the model was inferred
 * from, every link is in the map with the tier of its ends' nodes, so that is read directly
 * (no key string per link); any other list is looked up, unknown links giving undefined.
 */
export function linkTiersOf(model: TopologyModel, links: readonly FabricLink[]): (LinkTier | undefined)[] {
  if (builtFrom.get(model) !== links) return links.map((l) => model.linkTiers.get(linkKey(l.a, l.b)));
  const tiers = model.tiers;
  return links.map((l) => linkTierOf(tiers.get(l.a.nodeGuid), tiers.get(l.b.nodeGuid)));
}

/** Records that `model` was inferred from exactly `links` (inferTopology). */
export function noteModelLinks(model: TopologyModel, links: readonly FabricLink[]): void {
  builtFrom.set(model, links);
}
