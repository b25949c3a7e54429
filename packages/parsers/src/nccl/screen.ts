/**
 * Result rows as measurements. A row can be well formed and still not be one: `1e309` reads as
 * Infinity, `1e308` or `999999` GB/s is more than any fabric carries, a negative time or
 * bandwidth is corruption, and a size printed twice (two runs pasted into one log, or an edited
 * one) would let its better copy decide the verdict. Such values are dropped here with a warning
 * naming their line, so that every number downstream is finite and plausible:
 * - a placement (out-of-place or in-place) with a value that is not finite, a negative
 *   time/algbw/busbw/#wrong, or a busbw above the ceiling is dropped; a row left with neither is
 *   dropped;
 * - a row whose size or count is not an exact integer (`%12li` never prints one) is dropped;
 * - a row repeating an earlier size (same type, op and root) is dropped: the first one is kept.
 *   Zero-byte rows carry no bandwidth and are kept: old nccl-tests printed two of them for `-b 0`
 *   (`           0             0   float     sum    35.20    0.00    0.00    N/A ...` twice in
 *   the superbenchmark all_reduce log).
 */
import { NCCL_MAX_BUSBW_GBS } from '@ibwatch/fabric';
import type { NcclPlacementResult, NcclRow } from './types.ts';

/** Why a value is not a measurement, or undefined when it is one. */
function problem(name: string, v: number, max?: number): string | undefined {
  if (!Number.isFinite(v)) return `${name} ${v} is not a finite number`;
  if (v < 0) return `${name} ${v} is negative`;
  if (max !== undefined && v > max) return `${name} ${v} GB/s is above ${max} GB/s, more than any fabric carries`;
  return undefined;
}

function placementProblem(p: NcclPlacementResult, maxBusBwGBs: number): string | undefined {
  return (
    problem('time', p.timeUs) ??
    problem('algbw', p.algbwGBs) ??
    problem('busbw', p.busbwGBs, maxBusBwGBs) ??
    (p.wrong === null ? undefined : problem('#wrong', p.wrong))
  );
}

/** A row dropped by {@link screenRows}, for the error when nothing is left. */
export interface RefusedRow {
  row: NcclRow;
  reason: string;
}

/**
 * Keep the rows that are measurements (see the module comment). `warn` gets the row's line (or
 * undefined) and the message; `where[i]` names row i when it has no line (`results[3]` in JSON).
 */
export function screenRows(
  rows: readonly NcclRow[],
  warn: (line: number | undefined, message: string) => void,
  maxBusBwGBs: number = NCCL_MAX_BUSBW_GBS,
  where: readonly (string | undefined)[] = [],
): { rows: NcclRow[]; refused: RefusedRow[] } {
  const kept: NcclRow[] = [];
  const refused: RefusedRow[] = [];
  const firstOf = new Map<string, NcclRow>();
  rows.forEach((row, i) => {
    const at = where[i] ? `${where[i]}: ` : '';
    const say = (message: string) => warn(row.line, at + message);
    if (!Number.isSafeInteger(row.sizeBytes) || !Number.isSafeInteger(row.count)) {
      const reason = `size ${row.sizeBytes} / count ${row.count} is not an exact integer`;
      say(`${reason}; row dropped`);
      refused.push({ row, reason });
      return;
    }
    let out: NcclRow = row;
    const reasons: string[] = [];
    for (const [key, label] of [
      ['outOfPlace', 'out-of-place'],
      ['inPlace', 'in-place'],
    ] as const) {
      const p = row[key];
      const bad = p === null ? undefined : placementProblem(p, maxBusBwGBs);
      if (bad === undefined) continue;
      reasons.push(`${label} ${bad}`);
      out = { ...out, [key]: null };
      say(`${label} ${bad}; ${label} result dropped`);
    }
    if (out.outOfPlace === null && out.inPlace === null) {
      refused.push({ row, reason: reasons[0] ?? 'no result' });
      return;
    }
    const key = `${row.sizeBytes}|${row.type}|${row.redop ?? ''}|${row.root ?? ''}`;
    const first = row.sizeBytes > 0 ? firstOf.get(key) : undefined;
    if (first) {
      const reason = `size ${row.sizeBytes} (${[row.type, row.redop].filter(Boolean).join(' ')}) appears again`;
      say(`${reason}; keeping the first${first.line !== undefined ? ` (line ${first.line})` : ''}, this row dropped`);
      refused.push({ row, reason });
      return;
    }
    firstOf.set(key, out);
    kept.push(out);
  });
  return { rows: kept, refused };
}

/** The footer's average when it is a plausible number; undefined (with a warning) when not. */
export function screenAverage(
  value: number,
  warn: (message: string) => void,
  maxBusBwGBs: number = NCCL_MAX_BUSBW_GBS,
): number | undefined {
  const bad = problem('average bus bandwidth', value, maxBusBwGBs);
  if (bad === undefined) return value;
  warn(`${bad}; not stored`);
  return undefined;
}
