/**
 * Targets follow the hardware. A run is judged against the profile of the nodes it ran on (GPU
 * model, GPUs per node, NICs per node and their rate), read from the log's own lines; a run whose
 * hardware matches no profile gets no target, hence no verdict, never a FAIL.
 *
 * The rule (busbw is per GPU, but across nodes it is bounded by the node's NICs: 8 x 400 Gb/s =
 * 400 GB/s per node, and good NDR fabrics reach ~360 GB/s of it):
 * - all_reduce:                 90 % of the node's NIC bandwidth (NICs x Gb/s / 8 x 0.90)
 * - all_gather, reduce_scatter: 85 % of it (NICs x Gb/s / 8 x 0.85)
 * - alltoall, sendrecv:         80 % of one NIC (Gb/s / 8 x 0.80): bisection- or link-bound
 * - single node (NVLink only):  only where a profile states it (H100/H200: 460 / 360 / 360)
 * On rail-optimised nodes (one NIC per GPU) NICs = GPUs per node.
 */

export type NcclScope = 'single-node' | 'multi-node';

/** Scope from the node count: a run on one host rides NVLink, never the fabric. */
export function ncclScope(nodes: number | null | undefined): NcclScope | undefined {
  if (nodes === undefined || nodes === null || !(nodes >= 1)) return undefined;
  return nodes > 1 ? 'multi-node' : 'single-node';
}

/** Target busbw per collective and scope, in GB/s; `note` names the profile it comes from. */
export interface NcclTarget {
  collective: string;
  scope: NcclScope;
  minBusBwGBs: number;
  note?: string;
}

/** What the log (or its labels) says about the nodes a run used; undefined = not said. */
export interface NcclHardware {
  /** `NVIDIA H100 80GB HBM3`, from the rank lines (else the gpuModel label). */
  gpuModel?: string;
  /** Several different GPU models in the rank lines. */
  gpuModels?: string[];
  /** Ranks per host from the rank lines, when every host has the same number. */
  gpusPerNode?: number;
  /** Distinct HCAs per host in `NET/IB : Using [0]mlx5_0:1/IB ...` (else the hcaCount label). */
  nicsPerNode?: number;
  /** NIC rate from `NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000` (Mb/s), when all agree. */
  nicGbps?: number;
}

/** One hardware profile of the target table. */
export interface NcclProfile {
  /** Word the GPU model must contain, case-insensitive: `H100` matches `NVIDIA H100 80GB HBM3`. */
  gpu: string;
  gpusPerNode: number;
  nicsPerNode: number;
  nicGbps: number;
  /** all_reduce target across nodes when it is not the rule's (`=GB/s` in IBWATCH_NCCL_TARGETS). */
  allReduceGBs?: number;
  /** Single-node (NVLink) targets, only where known. */
  nvlink?: Partial<Record<string, number>>;
  /** Where the profile comes from. */
  source: 'default' | 'IBWATCH_NCCL_TARGETS';
}

/** Shares of the rule. */
export const NCCL_TARGET_RULE = { allReduce: 0.9, gatherScatter: 0.85, perNic: 0.8 } as const;

const H100_NVLINK = { all_reduce: 460, all_gather: 360, reduce_scatter: 360 };

/** The default table (docs/bandwidth.md lists it with each row's figures). */
export const DEFAULT_NCCL_PROFILES: readonly NcclProfile[] = [
  { gpu: 'H100', gpusPerNode: 8, nicsPerNode: 8, nicGbps: 400, nvlink: H100_NVLINK, source: 'default' },
  { gpu: 'H200', gpusPerNode: 8, nicsPerNode: 8, nicGbps: 400, nvlink: H100_NVLINK, source: 'default' },
  { gpu: 'A100', gpusPerNode: 8, nicsPerNode: 8, nicGbps: 200, source: 'default' },
  { gpu: 'A100', gpusPerNode: 8, nicsPerNode: 4, nicGbps: 200, source: 'default' },
];

const round1 = (x: number) => Math.round(x * 10) / 10;

/** `8x H100, 8x400G` : the profile's name, as every view prints it. */
export function profileName(p: Pick<NcclProfile, 'gpu' | 'gpusPerNode' | 'nicsPerNode' | 'nicGbps'>): string {
  return `${p.gpusPerNode}x ${p.gpu}, ${p.nicsPerNode}x${p.nicGbps}G`;
}

/** The profile's target for a collective and scope (GB/s), or undefined when it has none. */
export function profileTarget(p: NcclProfile, collective: string, scope: NcclScope): NcclTarget | undefined {
  const note = profileName(p);
  if (scope === 'single-node') {
    const gbs = p.nvlink?.[collective];
    return gbs === undefined ? undefined : { collective, scope, minBusBwGBs: gbs, note: `${note} (NVLink)` };
  }
  const node = (p.nicsPerNode * p.nicGbps) / 8;
  const gbs =
    collective === 'all_reduce'
      ? (p.allReduceGBs ?? node * NCCL_TARGET_RULE.allReduce)
      : collective === 'all_gather' || collective === 'reduce_scatter'
        ? node * NCCL_TARGET_RULE.gatherScatter
        : collective === 'alltoall' || collective === 'sendrecv'
          ? (p.nicGbps / 8) * NCCL_TARGET_RULE.perNic
          : undefined;
  return gbs === undefined ? undefined : { collective, scope, minBusBwGBs: round1(gbs), note };
}

/** What the log says about the hardware, in words: `8x NVIDIA A100-SXM4-80GB per node, 4 NICs`. */
export function hardwareText(hw: NcclHardware): string {
  const gpu =
    hw.gpuModels && hw.gpuModels.length > 1
      ? `mixed GPU models (${hw.gpuModels.join(', ')})`
      : (hw.gpuModel ?? 'GPU model not in the log');
  const per = hw.gpusPerNode === undefined ? 'GPUs per node unknown' : `${hw.gpusPerNode}x per node`;
  const nics =
    hw.nicsPerNode === undefined
      ? 'NICs not in the log'
      : `${hw.nicsPerNode} NIC${hw.nicsPerNode === 1 ? '' : 's'}${hw.nicGbps ? ` at ${hw.nicGbps} Gb/s` : ''}`;
  return `${gpu}, ${per}, ${nics}`;
}

export type ProfileChoice = { profile: NcclProfile; reason?: undefined } | { profile?: undefined; reason: string };

const SET_IT = 'set IBWATCH_NCCL_TARGETS to judge';

/**
 * The one profile the hardware fits: same GPU model word and GPUs per node, and the NIC count and
 * rate wherever the log says them. Configured profiles win over the defaults. None, or several
 * with different figures (an A100 log that does not name its NICs), is no target.
 */
export function chooseNcclProfile(hw: NcclHardware, profiles: readonly NcclProfile[]): ProfileChoice {
  const model = hw.gpuModel?.toLowerCase();
  const fits = profiles.filter(
    (p) =>
      model !== undefined &&
      model.includes(p.gpu.toLowerCase()) &&
      p.gpusPerNode === hw.gpusPerNode &&
      (hw.nicsPerNode === undefined || p.nicsPerNode === hw.nicsPerNode) &&
      (hw.nicGbps === undefined || p.nicGbps === hw.nicGbps),
  );
  const configured = fits.filter((p) => p.source === 'IBWATCH_NCCL_TARGETS');
  const pool = configured.length > 0 ? configured : fits;
  const names = [...new Set(pool.map(profileName))];
  if (pool.length > 0 && names.length === 1) return { profile: pool[0]! };
  if (pool.length === 0) return { reason: `no target for this hardware: ${hardwareText(hw)}; ${SET_IT}` };
  return {
    reason:
      `no target for this hardware: ${hardwareText(hw)} fits ${names.join(' and ')}; ` +
      `the log does not say which (run with NCCL_DEBUG=INFO, or give the hcaCount label)`,
  };
}

/** What {@link ncclHardware} reads: the parser's rank lines and IB devices, and the run's labels. */
export interface NcclHardwareInput {
  devices: readonly { host: string; gpu: string }[];
  ibDevices: readonly { host?: string; device: string; speedMbps?: number }[];
  labels?: { gpuModel?: string; hcaCount?: number };
}

/** The hardware a run's log (and, where the log is silent, its labels) describes. */
export function ncclHardware(input: NcclHardwareInput): NcclHardware {
  const hw: NcclHardware = {};
  const models = [...new Set(input.devices.map((d) => d.gpu).filter((g) => g.length > 0))];
  if (models.length === 1) hw.gpuModel = models[0];
  else if (models.length > 1) hw.gpuModels = models;
  else if (input.labels?.gpuModel) hw.gpuModel = input.labels.gpuModel;
  const perHost = new Map<string, number>();
  for (const d of input.devices) perHost.set(d.host, (perHost.get(d.host) ?? 0) + 1);
  const counts = new Set(perHost.values());
  if (counts.size === 1) hw.gpusPerNode = [...counts][0];
  const nics = new Map<string, Set<string>>();
  for (const d of input.ibDevices) {
    const key = d.host ?? '';
    const set = nics.get(key) ?? new Set<string>();
    set.add(d.device);
    nics.set(key, set);
  }
  const nicCounts = new Set([...nics.values()].map((s) => s.size));
  if (nicCounts.size === 1) hw.nicsPerNode = [...nicCounts][0];
  else if (nicCounts.size === 0 && input.labels?.hcaCount) hw.nicsPerNode = input.labels.hcaCount;
  const speeds = new Set(input.ibDevices.flatMap((d) => (d.speedMbps ? [d.speedMbps] : [])));
  if (speeds.size === 1) hw.nicGbps = [...speeds][0]! / 1000;
  return hw;
}

/**
 * `IBWATCH_NCCL_TARGETS`: profiles separated by `;`, each `GPU:GPUS_PER_NODE:NICSxGBPS[=GBS]`,
 * e.g. `MI300X:8:8x400;A100:8:4x200=95` (the optional `=GBS` sets the all_reduce target instead of
 * the rule). Throws an Error naming the bad entry.
 */
export function parseNcclTargets(text: string): NcclProfile[] {
  const out: NcclProfile[] = [];
  for (const raw of text.split(';')) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = /^([A-Za-z0-9][\w .-]*):(\d+):(\d+)x(\d+(?:\.\d+)?)G?(?:=(\d+(?:\.\d+)?))?$/.exec(entry);
    if (!m)
      throw new Error(
        `${JSON.stringify(entry)}: expected GPU:GPUS_PER_NODE:NICSxGBPS[=GBS], e.g. A100:8:4x200 or MI300X:1:1x400=40`,
      );
    const [gpusPerNode, nicsPerNode, nicGbps] = [Number(m[2]), Number(m[3]), Number(m[4])];
    if (gpusPerNode < 1 || gpusPerNode > 64 || nicsPerNode < 1 || nicsPerNode > 64 || nicGbps <= 0 || nicGbps > 10_000)
      throw new Error(`${JSON.stringify(entry)}: GPUs and NICs per node 1-64, NIC rate 1-10000 Gb/s`);
    const p: NcclProfile = { gpu: m[1]!.trim(), gpusPerNode, nicsPerNode, nicGbps, source: 'IBWATCH_NCCL_TARGETS' };
    if (m[5] !== undefined) p.allReduceGBs = Number(m[5]);
    out.push(p);
  }
  return out;
}
