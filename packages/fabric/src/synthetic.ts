import { CounterTableBuilder } from './counter-table.ts';
import type { FabricLink, FabricNode, FabricPort, FabricSnapshot } from './types.ts';

/** Size of a synthetic rail-optimised 3-tier fat tree. */
export interface FatTreeSpec {
  /** GPU hosts; each has `rails` HCAs `host-NNNN mlx5_R`. */
  hosts: number;
  rails: number;
  /** HCAs per leaf (a leaf serves one rail of `hostsPerLeaf` hosts). */
  hostsPerLeaf: number;
  /** Leaves per pod; every leaf links once to every spine of its pod. */
  leavesPerPod: number;
  spinesPerPod: number;
  /** Core uplinks per spine; spine j of every pod uses core group j. */
  coreLinksPerSpine: number;
}

/** 10,240 GPUs: 1280 hosts x 8 rails, 320 leaves, 160 spines, 64 cores, 16,000 links. */
export const TEN_K_GPUS: FatTreeSpec = {
  hosts: 1280,
  rails: 8,
  hostsPerLeaf: 32,
  leavesPerPod: 32,
  spinesPerPod: 16,
  coreLinksPerSpine: 4,
};

const guid = (kind: number, i: number) => '0x' + (kind * 0x1000000 + i).toString(16).padStart(16, '0');

/**
 * Build a synthetic fabric for tests and benchmarks (deterministic; GUIDs encode the role:
 * 1xxxxxx HCAs, 2xxxxxx leaves, 3xxxxxx spines, 4xxxxxx cores). Ports are Active 4X HDR. A
 * hand-sized shape (spines per pod, core links per spine) that the asymmetry tests count on; the
 * fabric of record is `generateFatTree` (fat-tree/generate.ts, via `fatTreeSnapshot`).
 */
export function syntheticFatTree(spec: FatTreeSpec): FabricSnapshot {
  const nodes: FabricNode[] = [];
  const links: FabricLink[] = [];
  const nextPort = new Map<string, number>();
  const port = (g: string) => {
    const n = (nextPort.get(g) ?? 0) + 1;
    nextPort.set(g, n);
    return n;
  };
  const link = (x: string, y: string) => {
    const a = { nodeGuid: x, portNum: port(x) };
    const b = { nodeGuid: y, portNum: port(y) };
    links.push(x < y ? { a, b } : { a: b, b: a });
  };
  const groups = Math.ceil(spec.hosts / spec.hostsPerLeaf);
  const leaves = groups * spec.rails;
  const pods = Math.ceil(leaves / spec.leavesPerPod);
  const cores = spec.spinesPerPod * spec.coreLinksPerSpine;
  for (let c = 0; c < cores; c++)
    nodes.push({ guid: guid(4, c), type: 'switch', description: `core-${c}`, numPorts: 64 });
  for (let p = 0; p < pods; p++) {
    for (let s = 0; s < spec.spinesPerPod; s++) {
      const sg = guid(3, p * spec.spinesPerPod + s);
      nodes.push({ guid: sg, type: 'switch', description: `spine-${p}-${s}`, numPorts: 64 });
      for (let k = 0; k < spec.coreLinksPerSpine; k++) link(sg, guid(4, s * spec.coreLinksPerSpine + k));
    }
  }
  for (let l = 0; l < leaves; l++) {
    const lg = guid(2, l);
    const group = Math.floor(l / spec.rails);
    const rail = l % spec.rails;
    nodes.push({ guid: lg, type: 'switch', description: `leaf-${l}`, numPorts: 64 });
    const pod = Math.floor(l / spec.leavesPerPod);
    for (let s = 0; s < spec.spinesPerPod; s++) link(lg, guid(3, pod * spec.spinesPerPod + s));
    for (let h = group * spec.hostsPerLeaf; h < Math.min(spec.hosts, (group + 1) * spec.hostsPerLeaf); h++) {
      const hg = guid(1, h * spec.rails + rail);
      nodes.push({ guid: hg, type: 'ca', description: `host-${String(h).padStart(4, '0')} mlx5_${rail}`, numPorts: 1 });
      link(hg, lg);
    }
  }
  const ports: FabricPort[] = [];
  for (const l of links) {
    for (const e of [l.a, l.b])
      ports.push({ ...e, state: 'Active', physState: 'LinkUp', widthActive: '4X', speedActive: 'HDR' });
  }
  return {
    source: 'diags',
    nodes,
    ports,
    links,
    counters: new CounterTableBuilder().build(),
    sms: [],
    cables: [],
    toolFindings: [],
    meta: {},
  };
}
