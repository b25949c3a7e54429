/**
 * A generated fat-tree as plain data. Produced by `generateFatTree()` (generate.ts), the one
 * fabric generator: the lab (netfile, node-name map, runner; it re-exports these as `Topology`,
 * `TopoNode`...), the benchmarks and tests use it, so nobody has to re-parse a netfile to know
 * what the fabric looks like. It lives in @ibwatch/fabric because it needs nothing else.
 */
import type { Guid, LinkSpeed, LinkWidth } from '../types.ts';

/** What a node is for. HCAs of GPU nodes and of head nodes are both `ca` in IB terms. */
export type FatTreeRole = 'leaf' | 'spine' | 'core' | 'gpu-hca' | 'head-hca';

/** One simulated IB node (a switch ASIC or one single-port HCA). */
export interface FatTreeNode {
  /** Node GUID (canonical form). For switches this is also the port-0 GUID. */
  guid: Guid;
  /** Port GUID of port 1 (HCAs only; ibsim assigns node GUID + 1). */
  portGuid?: Guid;
  /** ibsim nodeid and NodeDescription, e.g. `leaf-r3-07`, `dgx-0042 mlx5_3`. */
  name: string;
  type: 'switch' | 'ca';
  role: FatTreeRole;
  /** 0 = HCA, 1 = leaf, 2 = spine (pod spine in 3 tiers), 3 = core. */
  tier: number;
  numPorts: number;
  /** Rail (HCA `mlx5_N` is rail N; rail leaves serve one rail). Absent on spines, cores, mgmt. */
  rail?: number;
  /** Scalable unit (group of `radix/2` GPU nodes sharing one leaf per rail), 0-based. */
  su?: number;
  /** Pod (3 tiers only), 0-based. */
  pod?: number;
  /** Host name of an HCA's server, e.g. `dgx-0042`, `head-01`. */
  host?: string;
  /** Rack id (see README: R = compute, N = SU leaf rack, S = spine, C = core, M = management). */
  rack: string;
  /** Rack unit of the chassis. */
  u: number;
}

/** One end of a link: node name and port number. */
export interface FatTreeEnd {
  node: string;
  port: number;
}

/** A cable between two ports. `a` is the lower-tier end (HCA or leaf side). */
export interface FatTreeLink {
  a: FatTreeEnd;
  b: FatTreeEnd;
  /** Per-link override written to the netfile on both ends (e.g. a pre-degraded link). */
  width?: LinkWidth;
  speed?: LinkSpeed;
}

/** The resolved shape parameters, so consumers can see what `auto` picked. */
export interface FatTreeShape {
  gpus: number;
  gpuNodes: number;
  railsPerNode: number;
  tiers: 2 | 3;
  radix: number;
  /** GPU nodes per scalable unit (= leaf down ports). */
  nodesPerSu: number;
  sus: number;
  leaves: number;
  /** 2 tiers: number of spines. 3 tiers: spines per pod. */
  spinesPerGroup: number;
  pods: number;
  leavesPerPod: number;
  cores: number;
  /** Parallel cables between a leaf and each spine it reaches. */
  leafSpineCables: number;
  /** Parallel cables between a pod spine and each core it reaches (3 tiers). */
  spineCoreCables: number;
}

export interface FatTree {
  shape: FatTreeShape;
  /** Expected (full) rate of every link; the lab default is 4X HDR. */
  speed: LinkSpeed;
  width: LinkWidth;
  /** Switches first (leaves, spines, cores), then HCAs; order is the netfile order. */
  nodes: FatTreeNode[];
  links: FatTreeLink[];
  /** GUIDs of the top-tier switches, for `opensm -R ftree -a <roots file>`. */
  roots: Guid[];
  /** HCA names where the two subnet managers attach: `[head-01 mlx5_0, head-02 mlx5_0]`. */
  smHosts: string[];
}

/** Index of nodes by name, built once per topology (names are unique). */
export function fatTreeNodesByName(topo: FatTree): Map<string, FatTreeNode> {
  const m = new Map<string, FatTreeNode>();
  for (const n of topo.nodes) m.set(n.name, n);
  return m;
}

/**
 * Per-node port table: `ports.get(name)[p]` is the far end of port `p` (index 0 unused), or
 * undefined for a free port. Throws if a port is cabled twice — that would be a generator bug.
 */
export function fatTreePortTable(topo: FatTree): Map<string, (FatTreeEnd | undefined)[]> {
  const t = new Map<string, (FatTreeEnd | undefined)[]>();
  for (const n of topo.nodes) t.set(n.name, new Array<FatTreeEnd | undefined>(n.numPorts + 1).fill(undefined));
  const put = (from: FatTreeEnd, to: FatTreeEnd): void => {
    const row = t.get(from.node);
    if (!row) throw new Error(`link references unknown node "${from.node}"`);
    if (from.port < 1 || from.port >= row.length) throw new Error(`"${from.node}"[${from.port}] is out of range`);
    if (row[from.port]) throw new Error(`"${from.node}"[${from.port}] is cabled twice`);
    row[from.port] = to;
  };
  for (const l of topo.links) {
    put(l.a, l.b);
    put(l.b, l.a);
  }
  return t;
}
