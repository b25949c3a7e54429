/**
 * Fat-tree topology generator (pure): rail-optimised 2- and 3-tier fat-trees as built for DGX
 * clusters. HCA `mlx5_N` of every GPU node is cabled to the rail-N leaf of its scalable unit
 * (SU), so one SU = `radix/2` nodes and one leaf per rail. Leaves use `radix/2` ports down and
 * `radix/2` up (non-blocking). Two head nodes (where the SMs run) sit on a management leaf that
 * is wired into the tree like any other leaf.
 */
import type { Guid, LinkSpeed, LinkWidth } from '../types.ts';
import type { FatTree, FatTreeLink, FatTreeNode, FatTreeShape } from './model.ts';

export interface FatTreeOptions {
  /** Number of GPUs; nodes = ceil(gpus / gpusPerNode), each with one HCA per GPU. */
  gpus: number;
  /** 2, 3, or 'auto' (2 while it fits, else 3). Default 'auto'. */
  tiers?: 2 | 3 | 'auto';
  /** Switch radix. Default 64 (Quantum-2 QM9700). */
  radix?: number;
  /** GPUs (= HCAs = rails) per node. Default 8 (DGX). */
  gpusPerNode?: number;
  /** Expected link speed. Default HDR (ibsim 0.10 cannot do NDR). */
  speed?: LinkSpeed;
  /** Expected link width. Default 4X. */
  width?: LinkWidth;
  /**
   * Leaves per pod (3 tiers). Default radix/2; when the whole fabric fits into one pod it is
   * split into two pods so the third tier is really exercised.
   */
  leavesPerPod?: number;
  /** Number of head nodes (SM hosts), at least 2 for master + standby. Default 2. */
  headNodes?: number;
}

/** GUID bases: Mellanox-like OUIs, a tier byte for switches so GUIDs read well in dumps. */
const SWITCH_BASE = 0xfc6a1c0300000000n;
const CA_BASE = 0xb83fd20300000000n;
const HEAD_BASE = 0xb83fd203ff000000n;

function guidOf(v: bigint): Guid {
  return '0x' + v.toString(16).padStart(16, '0');
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Smallest divisor of `n` that is >= `min` (n itself if none smaller). */
function divisorAtLeast(n: number, min: number): number {
  for (let d = Math.max(1, Math.ceil(min)); d <= n; d++) if (n % d === 0) return d;
  return n;
}

/** Smallest divisor d of `n` with `used(n / d) <= cap`, or undefined. */
function smallestFittingDivisor(n: number, fits: (cablesPerPeer: number) => boolean): number | undefined {
  for (let d = 1; d <= n; d++) if (n % d === 0 && fits(n / d)) return d;
  return undefined;
}

/** Resolves the shape (counts) for the options, or throws with the reason it cannot be built. */
export function planFatTree(opts: FatTreeOptions): FatTreeShape {
  const radix = opts.radix ?? 64;
  const rails = opts.gpusPerNode ?? 8;
  const heads = opts.headNodes ?? 2;
  if (!Number.isInteger(opts.gpus) || opts.gpus < 1)
    throw new Error(`gpus must be a positive integer, got ${opts.gpus}`);
  if (!Number.isInteger(radix) || radix < 4 || radix % 2 !== 0)
    throw new Error(`radix must be an even integer >= 4, got ${radix}`);
  if (!Number.isInteger(rails) || rails < 1) throw new Error(`gpusPerNode must be a positive integer, got ${rails}`);
  const half = radix / 2;
  if (heads < 2 || heads > half) throw new Error(`headNodes must be between 2 and radix/2 (${half}), got ${heads}`);

  const gpuNodes = Math.ceil(opts.gpus / rails);
  const sus = Math.ceil(gpuNodes / half);
  const leaves = sus * rails + 1; // + management leaf

  // 2 tiers: S spines, each leaf reaches every spine with half/S cables; a spine has `radix` ports.
  const twoTierSpines = smallestFittingDivisor(half, (c) => leaves * c <= radix);
  let tiers: 2 | 3;
  if (opts.tiers === 2) {
    if (twoTierSpines === undefined) {
      throw new Error(`${leaves} leaves do not fit a 2-tier tree of radix ${radix} (max ${radix}); use 3 tiers`);
    }
    tiers = 2;
  } else if (opts.tiers === 3) tiers = 3;
  else tiers = twoTierSpines === undefined ? 3 : 2;

  if (tiers === 2) {
    const s = twoTierSpines as number;
    return {
      gpus: opts.gpus,
      gpuNodes,
      railsPerNode: rails,
      tiers,
      radix,
      nodesPerSu: half,
      sus,
      leaves,
      spinesPerGroup: s,
      pods: 1,
      leavesPerPod: leaves,
      cores: 0,
      leafSpineCables: half / s,
      spineCoreCables: 0,
    };
  }
  const leavesPerPod = opts.leavesPerPod ?? (leaves > half ? half : Math.max(1, Math.ceil(leaves / 2)));
  if (!Number.isInteger(leavesPerPod) || leavesPerPod < 1 || leavesPerPod > half) {
    throw new Error(`leavesPerPod must be between 1 and radix/2 (${half}), got ${leavesPerPod}`);
  }
  const pods = Math.ceil(leaves / leavesPerPod);
  // Pod spines: each leaf reaches each pod spine with half/P cables; a pod spine has `half` down ports.
  const spinesPerPod = divisorAtLeast(half, leavesPerPod);
  // Cores: pod spine j of every pod reaches the cores of plane j; a core has `radix` ports, one group per pod.
  const coresPerPlane = smallestFittingDivisor(half, (c) => pods * c <= radix);
  if (coresPerPlane === undefined) {
    throw new Error(`${pods} pods exceed a 3-tier tree of radix ${radix} (max ${radix} pods)`);
  }
  return {
    gpus: opts.gpus,
    gpuNodes,
    railsPerNode: rails,
    tiers,
    radix,
    nodesPerSu: half,
    sus,
    leaves,
    spinesPerGroup: spinesPerPod,
    pods,
    leavesPerPod,
    cores: spinesPerPod * coresPerPlane,
    leafSpineCables: half / spinesPerPod,
    spineCoreCables: half / coresPerPlane,
  };
}

/**
 * Generates the full topology. Deterministic: the same options always give the same names,
 * GUIDs, port numbers and order. Switch GUIDs encode the tier (`0xfc6a1c03 0T xxxxxx`),
 * GPU HCA node GUIDs encode node and rail (`0xb83fd203 00 NNNN R*2`), port GUID = node GUID + 1.
 */
export function generateFatTree(opts: FatTreeOptions): FatTree {
  const shape = planFatTree(opts);
  const { radix, railsPerNode: rails, nodesPerSu: half, sus, tiers } = shape;
  const heads = opts.headNodes ?? 2;
  const nodes: FatTreeNode[] = [];
  const links: FatTreeLink[] = [];
  const w2 = (n: number): number => Math.max(2, String(n).length);

  // Leaves in pod order: SU-major, rail-minor, management leaf last.
  const leafNames: string[] = [];
  const suW = w2(sus);
  for (let su = 0; su < sus; su++) {
    for (let r = 0; r < rails; r++) {
      const name = `leaf-r${r}-${pad(su + 1, suW)}`;
      leafNames.push(name);
      nodes.push({
        guid: guidOf(SWITCH_BASE | (1n << 24n) | BigInt(leafNames.length)),
        name,
        type: 'switch',
        role: 'leaf',
        tier: 1,
        numPorts: radix,
        rail: r,
        su,
        rack: `N${pad(su + 1, suW)}`,
        u: 1 + r,
      });
    }
  }
  const mgmtLeaf = 'leaf-mgmt-01';
  leafNames.push(mgmtLeaf);
  nodes.push({
    guid: guidOf(SWITCH_BASE | (1n << 24n) | BigInt(leafNames.length)),
    name: mgmtLeaf,
    type: 'switch',
    role: 'leaf',
    tier: 1,
    numPorts: radix,
    rack: 'M01',
    u: 40,
  });

  const roots: Guid[] = [];
  const rackOf = (prefix: string, i: number): { rack: string; u: number } => ({
    rack: `${prefix}${pad(Math.floor(i / 16) + 1, 2)}`,
    u: 1 + (i % 16) * 2,
  });

  if (tiers === 2) {
    const s = shape.spinesPerGroup;
    const c = shape.leafSpineCables;
    const w = w2(s);
    const spineNames: string[] = [];
    for (let j = 0; j < s; j++) {
      const name = `spine-${pad(j + 1, w)}`;
      spineNames.push(name);
      const guid = guidOf(SWITCH_BASE | (2n << 24n) | BigInt(j + 1));
      roots.push(guid);
      nodes.push({ guid, name, type: 'switch', role: 'spine', tier: 2, numPorts: radix, ...rackOf('S', j) });
    }
    leafNames.forEach((leaf, li) => {
      for (let j = 0; j < s; j++) {
        for (let k = 0; k < c; k++) {
          links.push({
            a: { node: leaf, port: half + j * c + k + 1 },
            b: { node: spineNames[j], port: li * c + k + 1 },
          });
        }
      }
    });
  } else {
    const { pods, leavesPerPod, spinesPerGroup: sp, leafSpineCables: c1, spineCoreCables: c2 } = shape;
    const coresPerPlane = shape.cores / sp;
    const podW = String(pods).length;
    const spW = w2(sp);
    const coreW = w2(shape.cores);
    const spineName = (q: number, j: number): string => `spine-p${pad(q + 1, podW)}-${pad(j + 1, spW)}`;
    const coreName = (j: number, ci: number): string => `core-${pad(j * coresPerPlane + ci + 1, coreW)}`;
    for (let q = 0; q < pods; q++) {
      for (let j = 0; j < sp; j++) {
        nodes.push({
          guid: guidOf(SWITCH_BASE | (2n << 24n) | BigInt(q * sp + j + 1)),
          name: spineName(q, j),
          type: 'switch',
          role: 'spine',
          tier: 2,
          numPorts: radix,
          pod: q,
          ...rackOf('S', q * sp + j),
        });
      }
    }
    for (let j = 0; j < sp; j++) {
      for (let ci = 0; ci < coresPerPlane; ci++) {
        const guid = guidOf(SWITCH_BASE | (3n << 24n) | BigInt(j * coresPerPlane + ci + 1));
        roots.push(guid);
        nodes.push({
          guid,
          name: coreName(j, ci),
          type: 'switch',
          role: 'core',
          tier: 3,
          numPorts: radix,
          ...rackOf('C', j * coresPerPlane + ci),
        });
      }
    }
    leafNames.forEach((leaf, li) => {
      const q = Math.floor(li / leavesPerPod);
      const lp = li % leavesPerPod;
      const leafNode = nodes[li];
      leafNode.pod = q;
      for (let j = 0; j < sp; j++) {
        for (let k = 0; k < c1; k++) {
          links.push({
            a: { node: leaf, port: half + j * c1 + k + 1 },
            b: { node: spineName(q, j), port: lp * c1 + k + 1 },
          });
        }
      }
    });
    for (let q = 0; q < pods; q++) {
      for (let j = 0; j < sp; j++) {
        for (let ci = 0; ci < coresPerPlane; ci++) {
          for (let k = 0; k < c2; k++) {
            links.push({
              a: { node: spineName(q, j), port: half + ci * c2 + k + 1 },
              b: { node: coreName(j, ci), port: q * c2 + k + 1 },
            });
          }
        }
      }
    }
  }

  // GPU node HCAs: node n (0-based) is slot n % half of SU n / half; mlx5_r goes to leaf r of that SU.
  const nodeW = Math.max(4, String(shape.gpuNodes).length);
  for (let n = 0; n < shape.gpuNodes; n++) {
    const host = `dgx-${pad(n + 1, nodeW)}`;
    const su = Math.floor(n / half);
    const slot = n % half;
    const rack = `R${pad(Math.floor(n / 4) + 1, Math.max(2, String(Math.ceil(shape.gpuNodes / 4)).length))}`;
    for (let r = 0; r < rails; r++) {
      const g = CA_BASE | (BigInt(n + 1) << 8n) | BigInt(r * 2);
      const name = `${host} mlx5_${r}`;
      nodes.push({
        guid: guidOf(g),
        portGuid: guidOf(g + 1n),
        name,
        type: 'ca',
        role: 'gpu-hca',
        tier: 0,
        numPorts: 1,
        rail: r,
        su,
        host,
        rack,
        u: 2 + (n % 4) * 10,
      });
      links.push({ a: { node: name, port: 1 }, b: { node: leafNames[su * rails + r], port: slot + 1 } });
    }
  }
  const smHosts: string[] = [];
  for (let h = 0; h < heads; h++) {
    const host = `head-${pad(h + 1, 2)}`;
    const name = `${host} mlx5_0`;
    const g = HEAD_BASE | (BigInt(h + 1) << 8n);
    smHosts.push(name);
    nodes.push({
      guid: guidOf(g),
      portGuid: guidOf(g + 1n),
      name,
      type: 'ca',
      role: 'head-hca',
      tier: 0,
      numPorts: 1,
      host,
      rack: 'M01',
      u: 10 + h * 2,
    });
    links.push({ a: { node: name, port: 1 }, b: { node: mgmtLeaf, port: h + 1 } });
  }
  return {
    shape,
    speed: opts.speed ?? 'HDR',
    width: opts.width ?? '4X',
    nodes,
    links,
    roots,
    smHosts: smHosts.slice(0, 2),
  };
}
