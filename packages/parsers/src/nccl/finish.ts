/**
 * Assembling an {@link NcclRun} from what the text or JSON parser collected: hosts, GPU
 * models, rank count and the collective (named by the output, given as a hint, or inferred).
 */
import { inferCollective, inferFromRatio } from './collective.ts';
import type { DebugCollector } from './debug.ts';
import { collectiveFromBinary } from './header.ts';
import { screenAverage } from './screen.ts';
import type { TableHeader } from './table.ts';
import type {
  NcclCollectiveSource,
  NcclDevice,
  NcclGdr,
  NcclParseOptions,
  NcclRow,
  NcclRun,
  NcclTestParams,
} from './types.ts';

/** Everything a front end (text or JSON) hands over. */
export interface RunParts {
  params: NcclTestParams;
  devices: NcclDevice[];
  rows: NcclRow[];
  header?: TableHeader;
  /** Column names when there is no text header (JSON). */
  columns?: string[];
  timeColumn?: 'time' | 'cputime';
  truncated: boolean;
  debug?: DebugCollector;
  /** GDR verdict when the front end has its own evidence (JSON env). */
  gdr?: NcclGdr;
  ncclTestsVersion?: string;
  ncclVersion?: string;
  cudaVersion?: string;
  avg?: { value: number; check?: 'OK' | 'FAILED'; line?: number };
  outOfBounds?: { count: number; ok: boolean };
  named?: { binary: string; source: NcclCollectiveSource };
  nRanks?: number;
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/** Build the run; `warn` receives remarks about the collective. */
export function finishRun(
  parts: RunParts,
  options: NcclParseOptions,
  warn: (line: number | undefined, message: string) => void,
): NcclRun {
  const nRanks = parts.devices.length > 0 ? parts.devices.length : (parts.nRanks ?? parts.debug?.nRanks);
  const run: NcclRun = {
    collectiveSource: 'unknown',
    params: parts.params,
    columns: parts.header ? parts.header.columns.map((c) => c.name) : (parts.columns ?? []),
    timeColumn: parts.header?.timeColumn ?? parts.timeColumn ?? 'time',
    devices: parts.devices,
    hosts: distinct(parts.devices.map((d) => d.host)),
    gpuModels: distinct(parts.devices.map((d) => d.gpu)),
    rows: parts.rows,
    truncated: parts.truncated,
    gdr: parts.gdr ??
      parts.debug?.gdr() ?? {
        status: 'unknown',
        basis: 'none',
        evidence: [],
        counts: {
          netChannelsGdr: 0,
          netChannelsNoGdr: 0,
          gpuPathsEnabled: 0,
          gpuPathsDisabled: 0,
          hcaEnabled: 0,
          hcaDisabled: 0,
        },
      },
    transports: parts.debug?.transports() ?? { kinds: {}, net: 0, p2p: 0, shm: 0, collnet: 0 },
    ibDevices: parts.debug?.ibDevices ?? [],
    ncclWarnings: parts.debug?.warnings ?? [],
  };
  if (nRanks !== undefined) run.nRanks = nRanks;
  if (parts.header) run.layout = parts.header.layout;
  if (parts.ncclVersion !== undefined) run.ncclVersion = parts.ncclVersion;
  if (parts.cudaVersion !== undefined) run.cudaVersion = parts.cudaVersion;
  if (parts.ncclTestsVersion !== undefined) run.ncclTestsVersion = parts.ncclTestsVersion;
  if (parts.debug?.network !== undefined) run.network = parts.debug.network;
  if (parts.avg) {
    const avg = parts.avg;
    const value = screenAverage(avg.value, (m) => warn(avg.line, m), options.maxBusBwGBs);
    if (value !== undefined) run.avgBusBwGBs = value;
    if (avg.check) run.avgBusBwCheck = avg.check;
  }
  if (parts.outOfBounds) run.outOfBounds = parts.outOfBounds;

  // Collective: named by the output > caller's hint > inferred from the table.
  const hint = options.collective;
  if (parts.named) {
    run.binary = parts.named.binary;
    const named = collectiveFromBinary(parts.named.binary);
    if (named) {
      run.collective = named;
      run.collectiveSource = parts.named.source;
      if (hint && hint !== named)
        warn(undefined, `output names ${parts.named.binary} but the caller said ${hint}; using ${named}`);
      return run;
    }
  }
  if (hint) {
    run.collective = hint;
    run.collectiveSource = 'hint';
    return run;
  }
  const guess = inferCollective(parts.rows, parts.header, nRanks);
  const byRatio = guess.collective || nRanks !== undefined ? undefined : inferFromRatio(parts.rows, guess.candidates);
  if (guess.collective) {
    run.collective = guess.collective;
    run.collectiveSource = 'layout';
  } else if (byRatio?.collective && byRatio.ratio !== undefined) {
    // No rank lines to check against: say so, since the verdict rests on this guess.
    run.collective = byRatio.collective;
    run.collectiveSource = 'ratio';
    const ratio = Math.round(byRatio.ratio * 10_000) / 10_000;
    run.inferred = byRatio.ranks === undefined ? { ratio } : { ratio, ranks: byRatio.ranks };
    const n = byRatio.ranks === undefined ? '' : `, n = ${byRatio.ranks} ranks`;
    const what = `${byRatio.collective} inferred from busbw/algbw = ${byRatio.ratio.toFixed(3)}${n}`;
    warn(parts.header?.line, `collective not named in the log: ${what}`);
  } else {
    const candidates = byRatio?.ratio !== undefined ? byRatio.candidates : guess.candidates;
    warn(
      parts.header?.line,
      `collective not named in the output and not inferable from the table${
        candidates.length > 0 ? ` (candidates: ${candidates.join(', ')})` : ''
      }; pass it as a hint`,
    );
  }
  return run;
}
