/**
 * The nccl-tests result table: columns are taken from the header line, never from fixed
 * positions, because the layout changed over the years:
 *
 * ```
 * 2022+:
 * #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
 * all_reduce, ~2021:
 * #       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
 * broadcast, ~2021:
 * #       size         count    type    root     time   algbw   busbw  error     time   algbw   busbw  error
 * all_gather, ~2021:
 * #       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error
 * ```
 *
 * Some columns are printed blank in the rows although the header names them: old alltoall
 * (`           0             0   float             1.63    0.00`) and hypercube leave `redop`
 * empty. Header and rows are right-aligned with the same printf widths, so when a row has fewer
 * fields than the header, fields are matched to columns by where they end.
 */
import type { NcclPlacementResult, NcclRow, NcclTableLayout } from './types.ts';

/** Canonical column names. */
export type ColumnName =
  | 'size'
  | 'count'
  | 'type'
  | 'redop'
  | 'root'
  | 'time'
  | 'algbw'
  | 'busbw'
  | 'wrong'
  | 'i_min'
  | 'i_max'
  | 'i_p99'
  | 'i_cv'
  | 'timestamp'
  | string;

/** One header column: canonical name, which block it is in, and where its label ends. */
export interface TableColumn {
  name: ColumnName;
  block: 'key' | 'oop' | 'ip' | 'extra';
  /** Index just past the label's last character in the header line. */
  end: number;
}

/** A parsed table header. */
export interface TableHeader {
  line: number;
  columns: TableColumn[];
  layout: NcclTableLayout;
  timeColumn: 'time' | 'cputime';
  hasTimestamp: boolean;
}

const ALIASES: Record<string, ColumnName> = {
  size: 'size',
  bytes: 'size', // 2016 headers: `bytes N type op time algbw busbw res`
  count: 'count',
  n: 'count',
  type: 'type',
  redop: 'redop',
  op: 'redop',
  root: 'root',
  time: 'time',
  cputime: 'time',
  algbw: 'algbw',
  busbw: 'busbw',
  '#wrong': 'wrong',
  error: 'wrong', // renamed to `#wrong` in 2022-08
  res: 'wrong',
  i_min: 'i_min',
  i_max: 'i_max',
  i_p99: 'i_p99',
  'i_cv%': 'i_cv',
  timestamp: 'timestamp',
};

/**
 * Recognise the column-name line of a table header and return its layout, or `undefined` when
 * the line is something else (the `out-of-place  in-place` line and the `(B)  (elements)` unit
 * line are not headers).
 */
export function parseTableHeader(line: string, lineNo: number): TableHeader | undefined {
  if (!line.startsWith('#')) return undefined;
  const tokens = [...line.slice(1).matchAll(/\S+/g)];
  const names = tokens.map((t) => t[0].toLowerCase());
  if (!(names.includes('size') || names.includes('bytes'))) return undefined;
  if (!names.includes('algbw') || !names.includes('busbw')) return undefined;
  const columns: TableColumn[] = [];
  let timesSeen = 0;
  let timeColumn: 'time' | 'cputime' = 'time';
  for (const t of tokens) {
    const raw = t[0].toLowerCase();
    const name = ALIASES[raw] ?? raw;
    if (name === 'time') {
      timesSeen++;
      if (raw === 'cputime') timeColumn = 'cputime';
    }
    const block = name === 'timestamp' ? 'extra' : timesSeen === 0 ? 'key' : timesSeen === 1 ? 'oop' : 'ip';
    columns.push({ name, block, end: 1 + (t.index ?? 0) + t[0].length });
  }
  if (timesSeen === 0) return undefined;
  const keyNames = columns.filter((c) => c.block === 'key').map((c) => c.name);
  const modern = keyNames.includes('redop') && keyNames.includes('root') && names.includes('#wrong');
  return {
    line: lineNo,
    columns,
    layout: modern ? 'modern' : 'legacy',
    timeColumn,
    hasTimestamp: columns.some((c) => c.name === 'timestamp'),
  };
}

/** A line that starts like a result row: two integers (size, count). */
export function looksLikeRow(line: string): boolean {
  return /^\s*\d+\s+\d+(\s|$)/.test(line);
}

/** Outcome of {@link parseRow}: a row, or why the line is not a usable row. */
export type RowResult = { ok: true; row: NcclRow } | { ok: false; reason: string; fields: number };

const NUMBER_RE = /^-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const TIMESTAMP_RE = /\s(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$/;

/** How far (in characters) a field's end may be from its column label's end. */
const ALIGN_TOLERANCE = 2;

/** Parse one row against a header. */
export function parseRow(line: string, header: TableHeader, lineNo: number): RowResult {
  let body = line;
  let timestamp: string | undefined;
  const cols = header.columns.filter((c) => c.name !== 'timestamp');
  if (header.hasTimestamp) {
    const m = TIMESTAMP_RE.exec(body);
    if (m) {
      timestamp = m[1];
      body = body.slice(0, m.index);
    }
  }
  const fields = [...body.matchAll(/\S+/g)].map((m) => ({ text: m[0], end: (m.index ?? 0) + m[0].length }));
  const expected = cols.length;
  const byColumn = new Map<number, string>();
  if (fields.length === expected) {
    fields.forEach((f, i) => byColumn.set(i, f.text));
  } else if (fields.length < expected) {
    // Blank columns: match each field to the column whose label ends where the field ends.
    let next = 0;
    for (const f of fields) {
      let found = -1;
      for (let c = next; c < cols.length; c++) {
        if (Math.abs(cols[c].end - f.end) <= ALIGN_TOLERANCE) {
          found = c;
          break;
        }
      }
      if (found < 0) return mismatch(fields.length, expected);
      byColumn.set(found, f.text);
      next = found + 1;
    }
    // Only interior blanks are real; a missing last column means the line was cut.
    if (!byColumn.has(cols.length - 1)) return mismatch(fields.length, expected);
  } else {
    return mismatch(fields.length, expected);
  }

  const get = (name: ColumnName, block: TableColumn['block'] = 'key'): string | undefined => {
    const idx = cols.findIndex((c) => c.name === name && c.block === block);
    return idx < 0 ? undefined : byColumn.get(idx);
  };
  const size = get('size');
  const count = get('count');
  const type = get('type');
  if (size === undefined || !/^\d+$/.test(size) || count === undefined || !/^\d+$/.test(count)) {
    return { ok: false, reason: 'size/count are not integers', fields: fields.length };
  }
  if (type === undefined || NUMBER_RE.test(type)) {
    return { ok: false, reason: 'missing data type', fields: fields.length };
  }
  const row: NcclRow = {
    line: lineNo,
    sizeBytes: Number(size),
    count: Number(count),
    type,
    outOfPlace: null,
    inPlace: null,
  };
  const redop = get('redop');
  if (redop !== undefined && redop !== 'none') row.redop = redop;
  const root = get('root');
  if (root !== undefined) {
    if (!/^-?\d+$/.test(root)) return { ok: false, reason: `root is not an integer: ${root}`, fields: fields.length };
    if (root !== '-1') row.root = Number(root);
  }
  for (const block of ['oop', 'ip'] as const) {
    const placement = parsePlacement((name) => get(name, block));
    if (typeof placement === 'string') return { ok: false, reason: placement, fields: fields.length };
    if (block === 'oop') row.outOfPlace = placement;
    else row.inPlace = placement;
  }
  if (row.outOfPlace === null && row.inPlace === null) {
    return { ok: false, reason: 'no timing values', fields: fields.length };
  }
  if (timestamp !== undefined) row.timestamp = timestamp;
  return { ok: true, row };
}

function mismatch(got: number, expected: number): RowResult {
  return { ok: false, reason: `row has ${got} fields, expected ${expected}`, fields: got };
}

/** Parse one placement block; `null` when blank/N/A, a string reason when malformed. */
function parsePlacement(get: (name: ColumnName) => string | undefined): NcclPlacementResult | null | string {
  const time = get('time');
  const algbw = get('algbw');
  const busbw = get('busbw');
  const wrong = get('wrong');
  const core = [time, algbw, busbw];
  if (core.every((v) => v === undefined || v === 'N/A')) return null;
  if (core.some((v) => v === undefined || !NUMBER_RE.test(v))) {
    return `unreadable time/algbw/busbw: ${core.map((v) => v ?? '(blank)').join(' ')}`;
  }
  let wrongValue: number | null = null;
  if (wrong !== undefined && wrong !== 'N/A') {
    // `#wrong` is printed with `%6g`, so large counts come as `1.2e+06`.
    if (!NUMBER_RE.test(wrong)) return `unreadable #wrong: ${wrong}`;
    wrongValue = Number(wrong);
  }
  const result: NcclPlacementResult = {
    timeUs: Number(time),
    algbwGBs: Number(algbw),
    busbwGBs: Number(busbw),
    wrong: wrongValue,
  };
  const iter = [get('i_min'), get('i_max'), get('i_p99'), get('i_cv')];
  if (iter.every((v) => v !== undefined && NUMBER_RE.test(v))) {
    const [minUs, maxUs, p99Us, cvPct] = iter.map(Number);
    result.perIteration = { minUs, maxUs, p99Us, cvPct };
  }
  return result;
}
