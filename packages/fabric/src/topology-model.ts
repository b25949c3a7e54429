import type { Guid } from './types.ts';

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
