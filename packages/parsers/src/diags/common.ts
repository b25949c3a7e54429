/**
 * Plumbing shared by the infiniband-diags and OpenSM parsers: a line-at-a-time parser shape,
 * a per-run context that numbers lines, collects warnings and raises {@link ParseError}, and
 * the value mappings every tool needs (widths, lane speeds, port states).
 *
 * Every parser here is a state machine with `feed(line)` / `finish()`, so the same code runs
 * over a string already in memory, an array of lines or a multi-megabyte stream read with
 * `node:readline` (a 60k-port `ibqueryerrors --counters` output is several MB). Pure: no I/O.
 */
import type { Guid, LinkSpeed, LinkWidth, ParseResult, ParseWarning, PhysState, PortState } from '@ibwatch/fabric';
import { normalizeGuid } from '@ibwatch/fabric';
import { ParseError } from '../parse-error.ts';
import { isBlank, looksBinary, splitLines, stripCr } from '../lines.ts';

/** A line-at-a-time parser. `feed` gets lines without terminator; `finish` validates and returns. */
export interface LineParser<T> {
  feed(line: string): void;
  finish(): ParseResult<T>;
}

/** Options every diags/OpenSM parser accepts. */
export interface ParseOptions {
  /** File name for warnings and {@link ParseError} messages. */
  file?: string;
}

/** What the synchronous entry points accept: whole text, or any iterable of lines. */
export type LineInput = string | Iterable<string>;

/** Feed `input` (text with LF/CRLF endings, or lines) to `parser` and finish it. */
export function runLines<T>(parser: LineParser<T>, input: LineInput): ParseResult<T> {
  if (typeof input === 'string') {
    for (const line of splitLines(input)) parser.feed(line);
  } else {
    for (const line of input) parser.feed(stripCr(line));
  }
  return parser.finish();
}

/** Same as {@link runLines} for an async iterable of lines (e.g. `readline.createInterface`). */
export async function runLinesAsync<T>(
  parser: LineParser<T>,
  input: AsyncIterable<string> | Iterable<string>,
): Promise<ParseResult<T>> {
  for await (const line of input) parser.feed(stripCr(line));
  return parser.finish();
}

/**
 * Per-run bookkeeping: line numbers, warnings, fatal errors. `next(line)` must be called first
 * in every `feed`; it strips a stray `\r`, counts the line and rejects binary garbage.
 */
export class LineContext {
  lineNo = 0;
  /** Lines that were not blank. */
  nonBlank = 0;
  readonly warnings: ParseWarning[] = [];

  constructor(
    readonly format: string,
    readonly file?: string,
  ) {}

  /** Count and sanity-check one line; returns it without a trailing `\r`. */
  next(raw: string): string {
    this.lineNo++;
    const line = stripCr(raw);
    if (looksBinary(line)) this.fail('binary data, not tool output', line);
    if (!isBlank(line)) this.nonBlank++;
    return line;
  }

  /** `line` null = a remark about the whole input (no line number). */
  warn(message: string, line: number | null = this.lineNo): void {
    const w: ParseWarning = { message };
    if (line !== null) w.line = line;
    if (this.file !== undefined) w.file = this.file;
    this.warnings.push(w);
  }

  /** Warn about a line the parser does not understand, quoting (a prefix of) it. */
  unknown(line: string, what = 'unrecognised line'): void {
    this.warn(`${what}: ${JSON.stringify(line.length > 160 ? line.slice(0, 160) + '...' : line)}`);
  }

  fail(reason: string, text?: string, line: number | null = this.lineNo): never {
    throw new ParseError({ format: this.format, reason, file: this.file, line: line ?? undefined, text });
  }

  /** Throw when nothing but blank lines was seen. */
  requireContent(): void {
    if (this.nonBlank === 0) this.fail('empty output', undefined, null);
  }

  /** Normalise a GUID or throw naming the line. */
  guid(raw: string, line?: string): Guid {
    const g = normalizeGuid(raw);
    if (g === undefined) this.fail(`invalid GUID ${JSON.stringify(raw)}`, line ?? raw);
    return g;
  }

  result<T>(value: T): ParseResult<T> {
    return { value, warnings: this.warnings };
  }
}

const WIDTHS: Record<string, LinkWidth> = { '1X': '1X', '2X': '2X', '4X': '4X', '8X': '8X', '12X': '12X' };

/** `4X` / `4x` -> `4X`; undefined for anything else. */
export function parseWidth(raw: string): LinkWidth | undefined {
  return WIDTHS[raw.toUpperCase()];
}

const SPEED_NAMES: Record<string, LinkSpeed> = {
  SDR: 'SDR',
  DDR: 'DDR',
  QDR: 'QDR',
  FDR10: 'FDR10',
  FDR: 'FDR',
  EDR: 'EDR',
  HDR: 'HDR',
  NDR: 'NDR',
  XDR: 'XDR',
};

/** Speed name as ibnetdiscover prints it (`HDR`, `FDR10`); `???` (down port) -> undefined. */
export function parseSpeedName(raw: string): LinkSpeed | undefined {
  return SPEED_NAMES[raw.toUpperCase()];
}

/** Lane rate in Gb/s as iblinkinfo prints it (`%s Gbps`) -> generation. */
const LANE_RATES: Record<string, LinkSpeed> = {
  '2.5': 'SDR',
  '5.0': 'DDR',
  '5': 'DDR',
  '10.0': 'QDR',
  '10': 'QDR',
  '10.3125': 'FDR10',
  '14.0625': 'FDR',
  '25.78125': 'EDR',
  '53.125': 'HDR',
  '106.25': 'NDR',
  '212.5': 'XDR',
};

/**
 * Lane rate string -> LinkSpeed. `10.0` is QDR unless the tool marks it FDR10: iblinkinfo prints
 * `10.0 Gbps (FDR10)` for FDR10 (Mellanox extended speed), plain `10.0 Gbps` for QDR.
 */
export function parseLaneRate(raw: string, fdr10Marker = false): LinkSpeed | undefined {
  if (fdr10Marker) return 'FDR10';
  return LANE_RATES[raw];
}

const PORT_STATES: Record<string, PortState> = {
  Down: 'Down',
  Initialize: 'Initialize',
  Init: 'Initialize',
  Armed: 'Armed',
  Active: 'Active',
};

export function parsePortState(raw: string): PortState {
  return PORT_STATES[raw] ?? 'Unknown';
}

const PHYS_STATES: Record<string, PhysState> = {
  NoChange: 'NoStateChange',
  NoStateChange: 'NoStateChange',
  Sleep: 'Sleep',
  Polling: 'Polling',
  Disabled: 'Disabled',
  PortConfigurationTraining: 'PortConfigurationTraining',
  LinkUp: 'LinkUp',
  LinkErrorRecovery: 'LinkErrorRecovery',
  PhyTest: 'PhyTest',
};

export function parsePhysState(raw: string): PhysState {
  return PHYS_STATES[raw] ?? 'Unknown';
}

/** Decimal or `0x` hex counter text -> bigint; undefined if it is neither. */
export function parseCounter(raw: string): bigint | undefined {
  const s = raw.trim();
  if (/^\d+$/.test(s) || /^0x[0-9a-f]+$/i.test(s)) return BigInt(s);
  return undefined;
}
