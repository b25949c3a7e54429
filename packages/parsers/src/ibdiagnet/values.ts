/**
 * Field decoders shared by the ibdiagnet2 file parsers: enums, integers, counters, GUIDs,
 * timestamps and the common `# Running timestamp` header of the text dumps.
 */
import type { NodeType, PhysState, PortState, SmState } from '@ibwatch/fabric';
import { SMALL_BIGINTS } from '../common/bytes.ts';

/** PortInfo.PortState. `0` (NoStateChange) is what unmanaged leaves report on port 0. */
export function portStateFromCode(code: number): PortState {
  switch (code) {
    case 1:
      return 'Down';
    case 2:
      return 'Initialize';
    case 3:
      return 'Armed';
    case 4:
      return 'Active';
    default:
      return 'Unknown';
  }
}

const PHYS: PhysState[] = [
  'NoStateChange',
  'Sleep',
  'Polling',
  'Disabled',
  'PortConfigurationTraining',
  'LinkUp',
  'LinkErrorRecovery',
  'PhyTest',
];

/** PortInfo.PortPhysicalState (2 Polling, 3 Disabled, 5 LinkUp, ...). */
export function physStateFromCode(code: number): PhysState {
  return Number.isInteger(code) && code >= 0 && code < PHYS.length ? PHYS[code] : 'Unknown';
}

/** NODES.NodeType: 1 CA, 2 Switch, 3 Router. */
export function nodeTypeFromCode(code: number): NodeType | undefined {
  return code === 1 ? 'ca' : code === 2 ? 'switch' : code === 3 ? 'router' : undefined;
}

/** SMInfo.SmState: 0 NOTACTIVE, 1 DISCOVERING, 2 STANDBY, 3 MASTER. */
export function smStateFromCode(code: number): SmState {
  return (['NOTACTIVE', 'DISCOVERING', 'STANDBY', 'MASTER'] as const)[code] ?? 'UNKNOWN';
}

/**
 * Port numbers go up to 255 (PortInfo's LocalPortNum and NumPorts are 8 bits; the API takes
 * 0..255); a LID is 16 bits. A larger number in a file is garbage, never a port or a LID.
 */
export const MAX_PORT_NUM = 255;
export const MAX_LID = 0xffff;

/**
 * Out-of-range numbers of one column, summed up in one warning at the end of the section (one
 * per row would drown the rest on a file where a whole column went bad).
 */
export class OutOfRange {
  private count = 0;
  private first = '';
  private line = 0;
  constructor(
    private readonly column: string,
    private readonly max: number,
  ) {}

  /** `v` when it is within 0..max, else undefined (noted). */
  check(v: number | undefined, line: number): number | undefined {
    if (v === undefined || (v >= 0 && v <= this.max)) return v;
    if (this.count++ === 0) {
      this.first = String(v);
      this.line = line;
    }
    return undefined;
  }

  /** The warning, when any value was out of range. */
  report(warn: (line: number, message: string) => void): void {
    if (this.count > 0)
      warn(this.line, `${this.column}: ${this.count} value(s) outside 0..${this.max} ignored (first: ${this.first})`);
  }
}

/**
 * Small integer field (decimal or `0x` hex); undefined for `N/A`, empty or garbage. Numbers of
 * the ports/enums fit in a double, so no bigint here.
 */
export function parseIntField(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (t.length === 0) return undefined;
  const n = t.startsWith('0x') || t.startsWith('0X') ? parseInt(t.slice(2), 16) : Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const MAX_U64 = (1n << 64n) - 1n;
const DIGITS = /^[0-9]+$/;
const HEX = /^0[xX][0-9a-fA-F]{1,16}$/;

/**
 * Read a PM counter cell: a bigint, `null` when the cell says "not supported by this port",
 * or a string naming why the cell is invalid. (Three plain outcomes instead of a result object:
 * this runs for every counter of every port, two million times on a 10k-GPU fabric.)
 *
 * Decimal in db_csv PM_INFO, hex in `.pm` and in the `retransmission_per_sec` column. Sentinels:
 * `-1` (PortLoopingErrors on every port of the sample: `...,0,-1,0,0,0,0`),
 * `0xfffffffffffffffe` (unsupported 64-bit field, e.g. retransmission_per_sec in PM_DELTA),
 * `N/A`, `NA`.
 */
export function parseCounter(text: string): bigint | null | string {
  if (text === '0') return 0n;
  const t = text.trim();
  if (t === '-1' || t === 'N/A' || t === 'NA' || t === '') return null;
  const c0 = t.charCodeAt(0);
  let value: bigint;
  if (c0 === 48 && (t.charCodeAt(1) === 120 || t.charCodeAt(1) === 88)) {
    if (t === '0x0000000000000000' || t === '0x0000') return 0n;
    if (!HEX.test(t)) return 'not a hex number';
    if (t.length === 18 && t.toLowerCase() === '0xfffffffffffffffe') return null;
    value = BigInt(t);
  } else if (c0 === 45) {
    return 'negative';
  } else if (!DIGITS.test(t)) {
    return 'not a number';
  } else {
    // Up to 15 digits is exact in a double, and BigInt(number) is cheaper than BigInt(string).
    if (t.length <= 15) {
      const n = Number(t);
      value = n < 1024 ? SMALL_BIGINTS[n] : BigInt(n);
    } else value = BigInt(t);
  }
  return value > MAX_U64 ? 'exceeds 64 bits' : value;
}

/**
 * ibdiagnet's timestamp `2025-03-31 23:43:18 UTC +0000` → ISO-8601 `2025-03-31T23:43:18Z`
 * (other offsets keep them: `+05:30`). Undefined when it does not look like one.
 */
export function ibdiagTimestampToIso(text: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?: \w+)?(?: ([+-])(\d{2}):?(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const off = m[3] === undefined || (m[4] === '00' && m[5] === '00') ? 'Z' : `${m[3]}${m[4]}:${m[5]}`;
  return `${m[1]}T${m[2]}${off}`;
}

/** Fields of the `# ...` header every ibdiagnet text dump starts with. */
export interface DumpHeader {
  /** Raw `# Running timestamp : 2025-03-31 23:43:18 UTC +0000` value. */
  runningTimestamp?: string;
  runningVersion?: string;
  runningCommand?: string;
}

/**
 * Read one header line into `h`; true when the line was a header/comment line. Recognises
 *   `# Running timestamp : 2025-03-31 23:43:18 UTC +0000`
 * and the `.log` variant without `#`: `Running timestamp: 2025-03-31 23:43:18 UTC +0000`.
 */
export function readHeaderLine(line: string, h: DumpHeader): boolean {
  const body = line.startsWith('#') ? line.slice(1).trimStart() : line;
  if (!body.startsWith('Running ')) return line.startsWith('#');
  const colon = body.indexOf(':');
  if (colon < 0) return line.startsWith('#');
  const key = body.slice(8, colon).trim();
  const value = body.slice(colon + 1).trim();
  if (key === 'timestamp') h.runningTimestamp = value;
  else if (key === 'version') h.runningVersion = value;
  else if (key === 'command') h.runningCommand = value;
  return true;
}
