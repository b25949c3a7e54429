/**
 * nccl-tests stdout parser: one pass over the lines, any NCCL_DEBUG lines mixed in.
 */
import type { ParseResult, ParseWarning } from '@ibwatch/fabric';
import { looksBinary, splitLines, stripCr } from '../common/lines.ts';
import { ParseError } from '../common/parse-error.ts';
import { DebugCollector } from './debug.ts';
import { finishRun, type RunParts } from './finish.ts';
import {
  findBinaryInCommand,
  ncclVersionFromCode,
  parseAvgBusBwLine,
  parseCollectiveNameLine,
  parseDeviceLine,
  parseOutOfBoundsLine,
  parseParamFlagLine,
  parseParamsLine,
  parseToolVersionLine,
} from './header.ts';
import { headerFromRow, isSnipMarker, parseRcclVersionLine, stripLaunchPrefix } from './real-world.ts';
import { screenRows } from './screen.ts';
import { looksLikeRow, parseRow, parseTableHeader, type TableHeader } from './table.ts';
import type { NcclDevice, NcclLinePrefix, NcclParseOptions, NcclRow, NcclRun, NcclTestParams } from './types.ts';

/** Format name used in errors and warnings. */
export const NCCL_TESTS_FORMAT = 'nccl-tests';

interface BadRow {
  line: number;
  text: string;
  reason: string;
}

/**
 * Parse nccl-tests stdout given line by line (an array, a generator, a readline stream's
 * lines collected...). Lines may still carry a trailing `\r`.
 *
 * @throws {ParseError} when no result row can be read (empty input, binary data, no table,
 *   only malformed rows), naming the line.
 */
export function parseNcclTestsLines(lines: Iterable<string>, options: NcclParseOptions = {}): ParseResult<NcclRun> {
  const { file } = options;
  const warnings: ParseWarning[] = [];
  const warn = (line: number | undefined, message: string): void => {
    const w: ParseWarning = { message };
    if (line !== undefined) w.line = line;
    if (file !== undefined) w.file = file;
    warnings.push(w);
  };
  const fail = (reason: string, line?: number, text?: string): never => {
    throw new ParseError({ format: NCCL_TESTS_FORMAT, reason, file, line, text });
  };

  const debug = new DebugCollector();
  let params: NcclTestParams = {};
  const devices = new Map<number, NcclDevice>();
  let header: TableHeader | undefined;
  let headerText = '';
  const rows: NcclRow[] = [];
  const rowText = new Map<number, string>();
  const bad: BadRow[] = [];
  let toolVersion: string | undefined;
  let libraryCode: number | undefined;
  let namedBinary: string | undefined;
  let commandBinary: string | undefined;
  let avg: ReturnType<typeof parseAvgBusBwLine>;
  let avgLine: number | undefined;
  let outOfBounds: ReturnType<typeof parseOutOfBoundsLine>;
  let firstBinary: { line: number; text: string } | undefined;
  let firstText: { line: number; text: string } | undefined;
  let binaryLines = 0;
  let lineNo = 0;
  let linePrefix: NcclLinePrefix | undefined;
  let rcclTestsVersion: string | undefined;
  const snipLines: number[] = [];
  let headerless = false;

  for (const raw of lines) {
    lineNo++;
    const stripped = stripLaunchPrefix(stripCr(raw));
    const line = stripped.line;
    linePrefix ??= stripped.prefix;
    if (looksBinary(line)) {
      binaryLines++;
      firstBinary ??= { line: lineNo, text: line };
      continue;
    }
    if (line.trim() === '') continue;
    firstText ??= { line: lineNo, text: line };
    if (debug.feed(line, lineNo)) continue;

    if (line.startsWith('#')) {
      const tool = parseToolVersionLine(line);
      if (tool) {
        toolVersion = tool.ncclTestsVersion;
        libraryCode = tool.ncclLibraryCode;
        continue;
      }
      const rccl = parseRcclVersionLine(line);
      if (rccl !== undefined) {
        rcclTestsVersion ??= rccl;
        continue;
      }
      const name = parseCollectiveNameLine(line);
      if (name !== undefined) {
        namedBinary ??= name;
        continue;
      }
      const p = parseParamsLine(line);
      if (p) {
        params = { ...params, ...p };
        continue;
      }
      const flags = parseParamFlagLine(line);
      if (flags) {
        params = { ...params, ...flags };
        continue;
      }
      const dev = parseDeviceLine(line);
      if (dev) {
        if (devices.has(dev.rank)) warn(lineNo, `rank ${dev.rank} listed twice; keeping the first`);
        else devices.set(dev.rank, dev);
        continue;
      }
      const h = parseTableHeader(line, lineNo);
      if (h) {
        header = h;
        headerText = line;
        continue;
      }
      const oob = parseOutOfBoundsLine(line);
      if (oob) {
        outOfBounds = oob;
        continue;
      }
      const a = parseAvgBusBwLine(line);
      if (a) {
        avg = a;
        avgLine = lineNo;
        continue;
      }
      commandBinary ??= findBinaryInCommand(line);
      continue;
    }

    if (!header && looksLikeRow(line)) {
      header = headerFromRow(line, lineNo);
      if (header) {
        headerless = true;
        warn(
          lineNo,
          `table without its column-name line: columns taken from the row's fields (${header.layout} layout)`,
        );
      }
    }
    if (header && looksLikeRow(line)) {
      const r = parseRow(line, header, lineNo);
      if (r.ok) {
        rows.push(r.row);
        rowText.set(lineNo, line);
      } else bad.push({ line: lineNo, text: line, reason: r.reason });
      continue;
    }
    if (isSnipMarker(line)) {
      snipLines.push(lineNo);
      continue;
    }
    rcclTestsVersion ??= parseRcclVersionLine(line);
    commandBinary ??= findBinaryInCommand(line);
  }

  if (rows.length === 0) {
    if (firstBinary && (!firstText || binaryLines > 0)) {
      fail('binary data, not nccl-tests output', firstBinary.line, firstBinary.text.slice(0, 60));
    }
    if (!firstText) fail('empty input');
    if (bad.length > 0) fail(`no usable result rows; ${bad[0].reason}`, bad[0].line, bad[0].text);
    if (header) fail('table header without result rows', header.line, headerText);
    fail('no nccl-tests result table found', firstText?.line, firstText?.text);
  }
  if (firstBinary) warn(firstBinary.line, `${binaryLines} line(s) of binary data skipped`);

  const lastRowLine = rows[rows.length - 1].line ?? 0;
  const cut = avg === undefined ? bad.find((b) => b.line > lastRowLine) : undefined;
  for (const b of bad) {
    if (b === cut) continue;
    warn(b.line, `${b.reason}; row skipped`);
  }
  const truncated = avg === undefined;
  if (truncated) {
    warn(
      cut?.line ?? lastRowLine,
      cut
        ? `output cut mid-table: incomplete row at line ${cut.line} dropped (${cut.reason}); ` +
            `no "# Avg bus bandwidth" footer, ${rows.length} complete row(s) kept`
        : `output ends after line ${lastRowLine} without "# Avg bus bandwidth" footer; ` +
            `${rows.length} complete row(s) kept`,
    );
  } else if (avgLine !== undefined && avgLine < lastRowLine) {
    warn(lastRowLine, 'result rows after the "# Avg bus bandwidth" footer');
  }
  const screened = screenRows(rows, warn, options.maxBusBwGBs);
  if (screened.rows.length === 0) {
    const first = screened.refused[0]!;
    const line = first.row.line!;
    fail(`no plausible result rows; ${first.reason}`, line, rowText.get(line));
  }

  const parts: RunParts = {
    params,
    devices: [...devices.values()].sort((a, b) => a.rank - b.rank),
    rows: screened.rows,
    header,
    truncated,
    debug,
    ncclTestsVersion: toolVersion,
    ncclVersion: debug.ncclVersion ?? (libraryCode !== undefined ? ncclVersionFromCode(libraryCode) : undefined),
    cudaVersion: debug.cudaVersion,
    avg: avg && { ...avg, line: avgLine },
    outOfBounds,
    named:
      namedBinary !== undefined
        ? { binary: namedBinary, source: 'header' }
        : commandBinary !== undefined
          ? { binary: commandBinary, source: 'command' }
          : undefined,
  };
  const run = finishRun(parts, options, warn);
  if (linePrefix) run.linePrefix = linePrefix;
  if (rcclTestsVersion !== undefined) run.rcclTestsVersion = rcclTestsVersion;
  if (headerless) run.headerless = true;
  if (snipLines.length > 0) {
    run.snipLines = snipLines;
    warn(snipLines[0], `${snipLines.length} "--(snip)--" marker(s): rows were left out of the saved log`);
  }
  return { value: run, warnings };
}

/**
 * Parse nccl-tests stdout given as one string (CRLF or LF).
 *
 * @throws {ParseError} see {@link parseNcclTestsLines}.
 */
export function parseNcclTestsText(text: string, options: NcclParseOptions = {}): ParseResult<NcclRun> {
  return parseNcclTestsLines(splitLines(text), options);
}
