/**
 * The benchmark fabric: the one fabric generator's fat-tree (`generateFatTree` of @ibwatch/fabric,
 * the lab's `generateTopology`) flattened into what the generated tool outputs need — LIDs in
 * ibsim order (switches first, then HCAs), every port with its far end, and the connected ports in
 * a stable order (the order of a PM sweep).
 */
import { generateFatTree, type FatTree as Topology, type FatTreeNode as TopoNode } from '@ibwatch/fabric';

export interface BenchPort {
  node: TopoNode;
  port: number;
  /** Node LID (switch port 0 LID for switch ports). */
  lid: number;
  peer?: { node: TopoNode; port: number; lid: number };
}

export interface BenchFabric {
  gpus: number;
  topo: Topology;
  switches: TopoNode[];
  cas: TopoNode[];
  lidOf: Map<string, number>;
  /** Every port of every node (switch ports 1..radix, HCA port 1), cabled or not. */
  ports: BenchPort[];
  /** Cabled ports only: what PM sweeps report counters for. */
  connected: BenchPort[];
}

const cache = new Map<number, BenchFabric>();

/** The 3-tier fat-tree for `gpus` GPUs, built once per process. */
export function benchFabric(gpus: number): BenchFabric {
  const hit = cache.get(gpus);
  if (hit) return hit;
  const topo = generateFatTree({ gpus, tiers: 3 });
  const switches = topo.nodes.filter((n) => n.type === 'switch');
  const cas = topo.nodes.filter((n) => n.type === 'ca');
  const lidOf = new Map<string, number>();
  let lid = 1;
  for (const n of [...switches, ...cas]) lidOf.set(n.name, lid++);
  const byName = new Map(topo.nodes.map((n) => [n.name, n]));
  const far = new Map<string, { node: TopoNode; port: number; lid: number }>();
  for (const l of topo.links) {
    far.set(`${l.a.node}:${l.a.port}`, { node: byName.get(l.b.node)!, port: l.b.port, lid: lidOf.get(l.b.node)! });
    far.set(`${l.b.node}:${l.b.port}`, { node: byName.get(l.a.node)!, port: l.a.port, lid: lidOf.get(l.a.node)! });
  }
  const ports: BenchPort[] = [];
  for (const n of [...switches, ...cas]) {
    const count = n.type === 'switch' ? n.numPorts : 1;
    for (let p = 1; p <= count; p++)
      ports.push({ node: n, port: p, lid: lidOf.get(n.name)!, peer: far.get(`${n.name}:${p}`) });
  }
  const f: BenchFabric = { gpus, topo, switches, cas, lidOf, ports, connected: ports.filter((p) => p.peer) };
  cache.set(gpus, f);
  return f;
}

/** Port GUID as the tools print it: switch ports share the node GUID; HCA port 1 is GUID + 1. */
export function portGuid(n: TopoNode): string {
  return n.type === 'switch' ? n.guid : (n.portGuid ?? n.guid);
}

/** Human label of a fabric size, e.g. `10k GPUs (929 sw, 10,002 HCAs, 63,076 ports)`. */
export function sizeLabel(f: BenchFabric): string {
  return `${f.gpus / 1000}k GPU: ${f.switches.length} sw, ${f.cas.length} HCA, ${f.connected.length} ports`;
}
