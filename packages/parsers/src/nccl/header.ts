/**
 * Recognisers for the nccl-tests lines around the result table: the test parameters, the
 * device list, the tool/collective name lines and the footer. Each returns `undefined` for a
 * line it does not recognise, so the caller can try them in turn.
 */
import { NCCL_COLLECTIVES, type NcclCollective, type NcclDevice, type NcclTestParams } from './types.ts';

function int(s: string | undefined): number | undefined {
  return s === undefined ? undefined : Number.parseInt(s, 10);
}

/**
 * Parse the parameter line
 * `# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20`
 * `agg iters: 1 validation: 1 graph: 0` (one line)
 * (old headers stop after `validation: 0`; since 2025 `unalign: 0` follows).
 */
export function parseParamsLine(line: string): NcclTestParams | undefined {
  if (!/^#\s*nThread\s+\d+/.test(line)) return undefined;
  const params: NcclTestParams = {};
  const set = (key: keyof NcclTestParams, re: RegExp): void => {
    const m = re.exec(line);
    if (m) (params as Record<string, unknown>)[key] = int(m[1]);
  };
  set('nThread', /\bnThread\s+(\d+)/);
  set('nGpus', /\bnGpus\s+(\d+)/);
  set('minBytes', /\bminBytes\s+(\d+)/);
  set('maxBytes', /\bmaxBytes\s+(\d+)/);
  set('warmupIters', /\bwarmup iters:\s*(\d+)/);
  // `iters:` also ends `warmup iters:` and `agg iters:`; take the bare one.
  set('iters', /(?<!warmup |agg )\biters:\s*(\d+)/);
  set('aggIters', /\bagg iters:\s*(\d+)/);
  set('validation', /\bvalidation:\s*(\d+)/);
  set('graph', /\bgraph:\s*(\d+)/);
  set('unalign', /\bunalign:\s*(\d+)/);
  const step = /\bstep:\s*(\d+)\((factor|bytes)\)/.exec(line);
  if (step) params.step = { value: Number.parseInt(step[1], 10), unit: step[2] as 'factor' | 'bytes' };
  return params;
}

/** Flags printed after the parameter line (`# Blocking Enabled: ...`, `# Parallel Init Enabled ...`). */
export function parseParamFlagLine(line: string): Partial<NcclTestParams> | undefined {
  if (/^#\s*Blocking Enabled/.test(line)) return { blocking: true };
  if (/^#\s*Parallel Init Enabled/.test(line)) return { parallelInit: true };
  if (/^#\s*Per-Iteration Report/.test(line)) return { perIterationReport: true };
  const reduced = /^#\s*Reducing maxBytes to (\d+)/.exec(line);
  if (reduced) return { reducedMaxBytes: Number.parseInt(reduced[1], 10) };
  return undefined;
}

// Modern: `#  Rank  0 Group  0 Pid   6899 on ztan-mig-235z device  0 [0000:04:00] NVIDIA H100 80GB HBM3`
// Old:    `#   Rank  0 Pid 112424 on localhost device  0 [0x00] A100-SXM4-40GB`
// The host is `%10s`, so short names come right-aligned: `on       n013 device`.
const DEVICE_RE =
  /^#\s*Rank\s+(\d+)\s+(?:Group\s+(\d+)\s+)?(?:Pid\s+(\d+)\s+)?on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s*(.*?)\s*$/;

/** Parse one rank line of the `# Using devices` block. */
export function parseDeviceLine(line: string): NcclDevice | undefined {
  const m = DEVICE_RE.exec(line);
  if (!m) return undefined;
  const device: NcclDevice = {
    rank: Number.parseInt(m[1], 10),
    host: m[4],
    cudaDevice: Number.parseInt(m[5], 10),
    busId: m[6].trim(),
    gpu: m[7],
  };
  if (m[2] !== undefined) device.group = Number.parseInt(m[2], 10);
  if (m[3] !== undefined) device.pid = Number.parseInt(m[3], 10);
  return device;
}

/** `# nccl-tests version 2.19.6 nccl-headers=22703 nccl-library=22703` (since 2025-10). */
export function parseToolVersionLine(line: string): { ncclTestsVersion: string; ncclLibraryCode?: number } | undefined {
  const m = /^#\s*nccl-tests version\s+(\S+)(?:.*\bnccl-library=(\d+))?/.exec(line);
  if (!m) return undefined;
  return m[2] === undefined
    ? { ncclTestsVersion: m[1] }
    : { ncclTestsVersion: m[1], ncclLibraryCode: Number.parseInt(m[2], 10) };
}

/**
 * Turn an `NCCL_VERSION_CODE` into `major.minor.patch`: since 2.9 the code is
 * `major*10000 + minor*100 + patch` (22703 = 2.27.3), before it was `major*1000 + minor*100 + patch`
 * (2708 = 2.7.8).
 */
export function ncclVersionFromCode(code: number): string | undefined {
  if (!Number.isInteger(code) || code <= 0) return undefined;
  if (code >= 10000) {
    return `${Math.floor(code / 10000)}.${Math.floor((code % 10000) / 100)}.${code % 100}`;
  }
  return `${Math.floor(code / 1000)}.${Math.floor((code % 1000) / 100)}.${code % 100}`;
}

const COLLECTIVE_BY_BINARY = new Map<string, NcclCollective>(NCCL_COLLECTIVES.map((c) => [`${c}_perf`, c]));

/** Map a binary name (`all_reduce_perf`, `all_reduce_perf_mpi`, `/path/to/gather_perf`) to its collective. */
export function collectiveFromBinary(binary: string): NcclCollective | undefined {
  const base = binary.split('/').pop() ?? binary;
  return COLLECTIVE_BY_BINARY.get(base.replace(/_mpi$/, ''));
}

/**
 * `# Collective test starting: gather_perf` / `# Collective test concluded: gather_perf`
 * (since 2025-06): the authoritative binary name.
 */
export function parseCollectiveNameLine(line: string): string | undefined {
  const m = /^#\s*Collective test (?:starting|concluded):\s*(\S+)/.exec(line);
  return m ? m[1] : undefined;
}

const PERF_COLLECTIVES =
  'all_reduce|all_gather|reduce_scatter|alltoall|broadcast|reduce|sendrecv|gather|scatter|hypercube';
const PERF_BINARY_RE = new RegExp(String.raw`(?:^|[\s/=])((?:${PERF_COLLECTIVES})_perf(?:_mpi)?)(?=\s|$)`);

/**
 * A command line that ran a `*_perf` binary, e.g. the quoted
 * `>    /opt/src/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1`, or an `mpirun ... ` line.
 * Only known collectives are returned, so a stray `foo_perf` word in a log is not mistaken.
 */
export function findBinaryInCommand(line: string): string | undefined {
  const m = PERF_BINARY_RE.exec(line);
  return m ? m[1] : undefined;
}

/** `# Out of bounds values : 0 OK` / `# Out of bounds values : 3 FAILED`. */
export function parseOutOfBoundsLine(line: string): { count: number; ok: boolean } | undefined {
  const m = /^#\s*Out of bounds values\s*:\s*(\d+)\s*(OK|FAILED)?/.exec(line);
  if (!m) return undefined;
  const count = Number.parseInt(m[1], 10);
  return { count, ok: m[2] === undefined ? count === 0 : m[2] === 'OK' };
}

/**
 * `# Avg bus bandwidth    : 70.742 ` — printed with `%g` (so `1.2e+02` is possible) and an
 * optional ` OK`/` FAILED` when `--check_avg_bw` was given. `nan` is possible when no rows ran.
 */
export function parseAvgBusBwLine(line: string): { value: number; check?: 'OK' | 'FAILED' } | undefined {
  const m = /^#\s*Avg bus bandwidth\s*:\s*(\S+)\s*(OK|FAILED)?/.exec(line);
  if (!m) return undefined;
  const value = Number.parseFloat(m[1]);
  return m[2] === undefined ? { value } : { value, check: m[2] as 'OK' | 'FAILED' };
}
