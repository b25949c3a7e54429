/** Command lines of `pnpm bench` and `pnpm bench:spot`, parsed into what the stages get. */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  quick: boolean;
  markdown: boolean;
  /** Print the target table and stop. */
  targets: boolean;
  /** Stages to run, in order (all when --only is not given). */
  only: string[] | null;
  /** The large fabric and every size reported (ascending, the large one last). */
  big: number;
  sizes: number[];
  runs: number;
  /** Duration of the cadence stage. */
  cadenceMinutes: number;
}

/** The sizes reported below the large fabric (each only when smaller than it). */
const SMALLER = [1000, 4000, 10000];

function positive(name: string, text: string, integer = true): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v)))
    throw new Error(`--${name} ${JSON.stringify(text)}: expected a positive ${integer ? 'integer' : 'number'}`);
  return v;
}

/** GPUs of a fat-tree: a whole number of 8-GPU nodes, 1,000 at least (the smallest size reported). */
function gpusOf(text: string): number {
  const n = positive('gpus', text);
  if (n < 1000 || n % 8) throw new Error(`--gpus ${n}: expected a multiple of 8, at least 1000`);
  return n;
}

/**
 * `[--quick] [--only a,b] [--gpus N] [--markdown] [--targets] [--cadence-minutes M]`.
 * Without --gpus: 1k, 4k and 10k (1k and 4k with --quick). With --gpus N: N is the large fabric,
 * reported with the smaller of 1k/4k/10k below it; with --only as well, N alone.
 */
export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      targets: { type: 'boolean', default: false },
      gpus: { type: 'string' },
      'cadence-minutes': { type: 'string', default: '30' },
    },
  });
  const quick = values.quick ?? false;
  const only = values.only
    ? values.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : null;
  let big = quick ? 4000 : 10000;
  let sizes = quick ? [1000, 4000] : [1000, 4000, 10000];
  if (values.gpus !== undefined) {
    big = gpusOf(values.gpus);
    sizes = only ? [big] : [...SMALLER.filter((s) => s < big && (!quick || s < 10000)), big];
  }
  return {
    quick,
    markdown: values.markdown ?? false,
    targets: values.targets ?? false,
    only,
    big,
    sizes,
    runs: quick ? 3 : 5,
    cadenceMinutes: positive('cadence-minutes', values['cadence-minutes'] ?? '30', false),
  };
}

export interface SpotArgs {
  gpus: number;
  runs: number;
  markdown: boolean;
  /** Seconds each API endpoint is loaded while the server sweeps (at least one sweep period). */
  loadSeconds: number;
  /**
   * Also load each API endpoint with the older one-thread http client and print its figures in
   * the row's note (`--client both`, the default), or only with the socket clients (`socket`).
   */
  oldClient: boolean;
}

/** `[--gpus 10000] [--runs 4] [--markdown] [--load-seconds 20] [--client both|socket]`. */
export function parseSpotArgs(argv: string[]): SpotArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      gpus: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '4' },
      markdown: { type: 'boolean', default: false },
      'load-seconds': { type: 'string', default: '20' },
      client: { type: 'string', default: 'both' },
    },
  });
  if (values.client !== 'both' && values.client !== 'socket')
    throw new Error(`--client ${JSON.stringify(values.client)}: expected both or socket`);
  return {
    gpus: gpusOf(values.gpus ?? '10000'),
    runs: positive('runs', values.runs ?? '4'),
    markdown: values.markdown ?? false,
    loadSeconds: positive('load-seconds', values['load-seconds'] ?? '20'),
    oldClient: values.client === 'both',
  };
}
