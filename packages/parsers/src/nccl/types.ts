/**
 * Typed result of parsing one nccl-tests run (`*_perf` stdout, optionally with NCCL_DEBUG=INFO
 * lines mixed in, or the `-J` JSON report). Units follow nccl-tests: time in microseconds,
 * bandwidth in GB/s with GB = 1e9 bytes, sizes in bytes.
 */

/** The nccl-tests binaries this parser knows (`<name>_perf`). */
export type NcclCollective =
  | 'all_reduce'
  | 'all_gather'
  | 'reduce_scatter'
  | 'alltoall'
  | 'broadcast'
  | 'reduce'
  | 'sendrecv'
  | 'gather'
  | 'scatter'
  | 'hypercube';

/** Every known collective, in a stable order. */
export const NCCL_COLLECTIVES: readonly NcclCollective[] = [
  'all_reduce',
  'all_gather',
  'reduce_scatter',
  'alltoall',
  'broadcast',
  'reduce',
  'sendrecv',
  'gather',
  'scatter',
  'hypercube',
];

/**
 * Where {@link NcclRun.collective} came from: the text named it (`# Collective test starting:`,
 * the command line, the JSON `args`), the caller's hint, or it was inferred from the table
 * layout and the busbw/algbw ratio.
 */
export type NcclCollectiveSource = 'header' | 'command' | 'json-args' | 'hint' | 'layout' | 'ratio' | 'unknown';

/** The launcher's per-line prefix a saved log carried: `srun -l` (` 0: `), `mpirun --tag-output`. */
export type NcclLinePrefix = 'srun -l' | 'mpirun --tag-output';

/** Test parameters from `# nThread 1 nGpus 1 minBytes 8 maxBytes ... validation: 1 graph: 0`. */
export interface NcclTestParams {
  nThread?: number;
  nGpus?: number;
  minBytes?: number;
  maxBytes?: number;
  /** `step: 2(factor)` or `step: 134217728(bytes)`. */
  step?: { value: number; unit: 'factor' | 'bytes' };
  warmupIters?: number;
  iters?: number;
  /** `agg iters:` (absent in old headers). */
  aggIters?: number;
  /** `validation:` (`-c`); 0 means `#wrong` columns print `N/A`. */
  validation?: number;
  /** `graph:` (CUDA graph launches; absent in old headers). */
  graph?: number;
  unalign?: number;
  /** From `# Reducing maxBytes to N due to memory limitation`. */
  reducedMaxBytes?: number;
  blocking?: boolean;
  parallelInit?: boolean;
  perIterationReport?: boolean;
}

/** One `#  Rank  3 Group  0 Pid 6902 on host device  3 [0000:0c:00] NVIDIA H100 80GB HBM3` line. */
export interface NcclDevice {
  rank: number;
  /** Absent in old (pre-2022) rank lines. */
  group?: number;
  pid?: number;
  host: string;
  /** CUDA device index on the host. */
  cudaDevice: number;
  /** As printed: `0000:0c:00` (modern) or `0x00` (old nccl-tests). */
  busId: string;
  /** GPU model, e.g. `NVIDIA H100 80GB HBM3`. */
  gpu: string;
}

/** Results of one placement (out-of-place or in-place) of one row. */
export interface NcclPlacementResult {
  timeUs: number;
  algbwGBs: number;
  busbwGBs: number;
  /** `#wrong` (old: `error`); `null` when printed `N/A` (validation off, or sendrecv in-place). */
  wrong: number | null;
  /** Per-iteration statistics (`-I 1`: `i_min i_max i_p99 i_cv%`). */
  perIteration?: { minUs: number; maxUs: number; p99Us: number; cvPct: number };
}

/** One result row (one message size) of the table. */
export interface NcclRow {
  /** 1-based line of the row in the text input (absent for JSON). */
  line?: number;
  sizeBytes: number;
  /** Element count as printed (per rank for all_gather/alltoall/gather/scatter/...). */
  count: number;
  type: string;
  /** Reduction op; absent when printed blank or `none`. */
  redop?: string;
  /** Root rank; absent when printed `-1` or when the layout has no root column. */
  root?: number;
  /** `null` when the block is blank (nccl-tests trace replay) or all `N/A`. */
  outOfPlace: NcclPlacementResult | null;
  inPlace: NcclPlacementResult | null;
  /** `-S 1` timestamp column, as printed (`2025-06-01 12:00:00`, local time of the test). */
  timestamp?: string;
}

/** Table layouts: `modern` has `redop` and `root` columns and `#wrong`; anything else is `legacy`. */
export type NcclTableLayout = 'modern' | 'legacy';

/** Whether GPUDirect RDMA was used, derived from NCCL_DEBUG=INFO lines. */
export type GdrStatus = 'enabled' | 'disabled' | 'mixed' | 'unknown';

/** A quoted log line that supports a conclusion. */
export interface NcclEvidence {
  /** 1-based line number in the input. */
  line: number;
  text: string;
}

/** GPUDirect RDMA verdict plus the lines it rests on. */
export interface NcclGdr {
  status: GdrStatus;
  /** Which class of lines decided: channel lines beat per-GPU path lines beat per-HCA lines. */
  basis: 'channels' | 'gpu-paths' | 'hca' | 'network' | 'env' | 'none';
  /** The deciding lines (at most {@link MAX_EVIDENCE}). */
  evidence: NcclEvidence[];
  /** Counts over the whole input, not capped. */
  counts: {
    netChannelsGdr: number;
    netChannelsNoGdr: number;
    gpuPathsEnabled: number;
    gpuPathsDisabled: number;
    hcaEnabled: number;
    hcaDisabled: number;
  };
}

/** Cap on evidence lines kept per verdict (large jobs print thousands of channel lines). */
export const MAX_EVIDENCE = 20;

/** Channel-line counts by transport, from `Channel 00/0 : 1[1] -> 8[0] [receive] via NET/IB/0/GDRDMA`. */
export interface NcclTransports {
  /** Count per transport kind: `NET/IB`, `NET/Socket`, `P2P/IPC`, `P2P/CUMEM`, `SHM/direct`, `COLLNET`... */
  kinds: Record<string, number>;
  net: number;
  p2p: number;
  shm: number;
  collnet: number;
}

/** One HCA from `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_2:1/RoCE [RO]; OOB ib0:10.0.0.1<0>`. */
export interface NcclIbDevice {
  /** Host from the NCCL line prefix, when present. */
  host?: string;
  /** NCCL's net device index (the `<dev>` in `via NET/IB/<dev>`). */
  index: number;
  /** Verbs device, e.g. `mlx5_0`. */
  device: string;
  port: number;
  linkLayer: string;
  /** Link speed in Mb/s from `NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000` (NCCL >= 2.2x). */
  speedMbps?: number;
}

/** Everything learned from one nccl-tests run. */
export interface NcclRun {
  collective?: NcclCollective;
  collectiveSource: NcclCollectiveSource;
  /** Binary name when printed (`all_reduce_perf`, `all_reduce_perf_mpi`, also unknown ones). */
  binary?: string;
  /** NCCL library version, `2.16.5`. */
  ncclVersion?: string;
  /** CUDA version NCCL was built with, from `NCCL version 2.16.5+cuda11.8`. */
  cudaVersion?: string;
  /** From `# nccl-tests version 2.19.6 ...` (since 2025-10). */
  ncclTestsVersion?: string;
  params: NcclTestParams;
  layout?: NcclTableLayout;
  /** Canonical column names of the (last) table header, e.g. `size count type redop root time ...`. */
  columns: string[];
  /** `cputime` when run with `-C 1`. */
  timeColumn: 'time' | 'cputime';
  devices: NcclDevice[];
  /** Distinct hosts in rank order. */
  hosts: string[];
  /** Distinct GPU models in rank order. */
  gpuModels: string[];
  /** Rank count: rank lines, else NCCL `nranks`, else undefined. */
  nRanks?: number;
  rows: NcclRow[];
  /** `# Avg bus bandwidth : 70.742` (mean busbw over all rows, both placements); absent when not plausible. */
  avgBusBwGBs?: number;
  /** ` OK`/` FAILED` suffix of the avg line when run with `-G/--check_avg_bw` (JSON: `unchecked` omitted). */
  avgBusBwCheck?: 'OK' | 'FAILED';
  /** `# Out of bounds values : 0 OK`. */
  outOfBounds?: { count: number; ok: boolean };
  /** True when the output has no `# Avg bus bandwidth` footer (cut short): import as partial. */
  truncated: boolean;
  gdr: NcclGdr;
  transports: NcclTransports;
  ibDevices: NcclIbDevice[];
  /** `Using network IB` / `Socket` / a plugin name. */
  network?: string;
  /** NCCL WARN lines (at most 50). */
  ncclWarnings: NcclEvidence[];
  /** Every line carried a launcher prefix (stripped before parsing). */
  linePrefix?: NcclLinePrefix;
  /** `rccl-tests: Version develop:7ec9c1c`: the output is AMD's rccl-tests. */
  rcclTestsVersion?: string;
  /** `collectiveSource: 'ratio'`: busbw/algbw and the rank count solved from it. */
  inferred?: { ratio: number; ranks?: number };
  /** Lines of `--(snip)--` markers: rows were cut out by whoever saved the log. */
  snipLines?: number[];
  /** The table had no column-name line: its layout was taken from the rows' field count. */
  headerless?: boolean;
}

/** Options shared by the text and JSON parsers. */
export interface NcclParseOptions {
  /** File name, for warnings and errors. */
  file?: string;
  /** Collective the caller ran; used when the text does not name it. */
  collective?: NcclCollective;
  /** busbw (GB/s) above which a result is not a measurement; default `NCCL_MAX_BUSBW_GBS` (4000). */
  maxBusBwGBs?: number;
}
