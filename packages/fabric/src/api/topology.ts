/** `GET /api/topology`: nodes and links. Part of the HTTP API contract (see ../api.ts). */
import type { LinkSpeed, LinkWidth, NodeType } from '../types.ts';
import type { LinkHealth, Tier } from './common.ts';

export interface TopoNode {
  guid: string;
  name: string;
  type: NodeType;
  tier: Tier;
  rail: number | null;
  rack: string | null;
  lid: number | null;
  /** Host name for HCAs (`dgx-0042` of `dgx-0042 mlx5_3`). */
  host: string | null;
}

export interface LinkEnd {
  guid: string;
  name: string;
  port: number;
  lid: number | null;
  rack: string | null;
  /** Rack unit from the node-name map (`# rack=R07 u=12`), where the reply knows it (worklist). */
  u?: number | null;
}

export interface TopoLink {
  id: number;
  a: LinkEnd;
  b: LinkEnd;
  tier: 'hca-leaf' | 'leaf-spine' | 'spine-core' | 'other';
  health: LinkHealth;
  widthActive: LinkWidth | null;
  speedActive: LinkSpeed | null;
  /** Plain-words reason when health is not ok. */
  reason: string | null;
}

export interface TopologyReply {
  generatedAt: number;
  nodes: TopoNode[];
  links: TopoLink[];
}
