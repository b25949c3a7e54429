/**
 * What every db_csv section reader shares: the interface the db_csv state machine drives, column
 * lookup by name and in-place cell readers. Apart from db-csv-sections.ts, which picks a reader per
 * section, so the per-section readers (ports, PM, firmware) do not import their own dispatcher.
 */
import { plainHex, plainInt } from '../common/bytes.ts';
import type { GuidTable } from '../common/guids.ts';
import type { CsvRow } from './csv.ts';
import { parseIntField } from './values.ts';

/** What a reader reports back to the db_csv state machine, and what it shares across sections. */
export interface SectionContext {
  warn(line: number, message: string): void;
  /** One table per file: NODES, PORTS, LINKS and PM rows repeat the same GUIDs. */
  guids: GuidTable;
  /** Rows of the PORTS section before this one (0 when none): PM_INFO holds a row per port. */
  rowsHint: number;
}

/** Interprets one section. */
export interface SectionReader {
  /** Returns the reason the section cannot be used (a key column is missing), or undefined. */
  header(names: string[]): string | undefined;
  /** Returns a warning message when the row is rejected, undefined when taken. */
  row(r: CsvRow, line: number): string | undefined;
  /**
   * Optional fast path for row `bytes[start, end)`: the reader walks the commas itself and must
   * reject a row whose field count differs from `expected`, as the `row` path does. Returns
   * `false` when it meets a `"` and leaves the row to `row`. `bytes[end]` is always the line's
   * `\r` or `\n`, so a scan may stop on the first byte that is not a digit.
   */
  rawRow?(bytes: Uint8Array, start: number, end: number, lineNo: number, expected: number): string | undefined | false;
  /** Called at END_<NAME>. */
  end?(): void;
}

/** Column lookup, case-insensitive (PORTS says `NodeGuid`, PM_INFO `NodeGUID`). */
export function indexer(names: string[]): (...candidates: string[]) => number {
  const map = new Map<string, number>();
  names.forEach((n, i) => map.set(n.toLowerCase(), i));
  return (...candidates) => {
    for (const c of candidates) {
      const i = map.get(c.toLowerCase());
      if (i !== undefined) return i;
    }
    return -1;
  };
}

export function missing(cols: Record<string, number>): string | undefined {
  const absent = Object.entries(cols)
    .filter(([, i]) => i < 0)
    .map(([n]) => n);
  return absent.length ? `missing column ${absent.join(', ')}` : undefined;
}

/** Integer cell `i`, parsed in place when it is plain decimal or `0x` hex; undefined when absent/bad. */
export function intCell(r: CsvRow, i: number): number | undefined {
  if (i < 0 || i >= r.count) return undefined;
  if (r.plain(i)) {
    const v = plainInt(r.bytes, r.starts[i], r.ends[i]);
    if (v >= 0) return v;
    const h = plainHex(r.bytes, r.starts[i], r.ends[i]);
    if (h >= 0) return h;
  }
  return parseIntField(r.text(i));
}

export const guidCell = (r: CsvRow, i: number, guids: GuidTable): string | undefined => {
  if (i < 0 || i >= r.count) return undefined;
  return r.plain(i) ? guids.getBytes(r.bytes, r.starts[i], r.ends[i]) : guids.get(r.text(i)!);
};
/**
 * An optional GUID cell: the GUID; undefined when absent, empty or all zeros; null when it holds
 * anything else (a damaged cell, not a missing value: its row is skipped, not taken without it).
 */
export function optionalGuidCell(r: CsvRow, i: number, guids: GuidTable): string | undefined | null {
  const g = guidCell(r, i, guids);
  if (g !== undefined) return g;
  const t = r.text(i)?.trim();
  return !t || /^0x0+$/i.test(t) ? undefined : null;
}
export const show = (r: CsvRow, i: number): string => JSON.stringify(r.text(i));
