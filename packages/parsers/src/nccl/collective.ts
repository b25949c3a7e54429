/**
 * Inferring which collective produced a table when the output does not name it (old
 * nccl-tests print no `# Collective test starting:` line and logs often lack the command).
 *
 * Two clues: the key columns of the header/rows (`redop`, `root`), and the ratio busbw/algbw,
 * which each test fixes from the rank count n (nccl-tests doc/PERFORMANCE.md, `*GetBw`):
 * all_reduce 2(n-1)/n; reduce_scatter, all_gather, alltoall, gather, scatter (n-1)/n;
 * broadcast, reduce, sendrecv, hypercube 1.
 */
import type { TableHeader } from './table.ts';
import { NCCL_COLLECTIVES, type NcclCollective, type NcclRow } from './types.ts';

/** Result of {@link inferCollective}: one answer, or the candidates that remain. */
export interface CollectiveGuess {
  collective?: NcclCollective;
  candidates: NcclCollective[];
}

/**
 * Guess the collective from rows (+ header when text) and the rank count. Returns the single
 * remaining candidate, or none with the candidate list when ambiguous.
 */
export function inferCollective(
  rows: NcclRow[],
  header: TableHeader | undefined,
  nRanks: number | undefined,
): CollectiveGuess {
  let candidates: NcclCollective[] = [...NCCL_COLLECTIVES];
  const keep = (allowed: NcclCollective[]): void => {
    candidates = candidates.filter((c) => allowed.includes(c));
  };
  const keyNames = header ? header.columns.filter((c) => c.block === 'key').map((c) => c.name) : undefined;
  const sample = rows.find((r) => r.sizeBytes > 0) ?? rows[0];
  if (!sample) return { candidates: [] };

  if (keyNames && !(keyNames.includes('redop') && keyNames.includes('root'))) {
    // Pre-2021 headers differ per collective (see table.ts); reduce already had both columns.
    const hasRedop = keyNames.includes('redop');
    const hasRoot = keyNames.includes('root');
    if (hasRoot) keep(['broadcast']);
    else if (hasRedop) keep(sample.redop === undefined ? ['alltoall'] : ['all_reduce', 'reduce_scatter']);
    else keep(['all_gather']);
  } else {
    const hasRoot = sample.root !== undefined;
    const isReduction = sample.redop !== undefined;
    if (hasRoot) keep(isReduction ? ['reduce'] : ['broadcast', 'gather', 'scatter']);
    else keep(isReduction ? ['all_reduce', 'reduce_scatter', 'sendrecv'] : ['all_gather', 'alltoall', 'hypercube']);
  }
  if (candidates.length > 1 && nRanks !== undefined && nRanks > 1) {
    const ratio = busAlgRatio(rows);
    if (ratio !== undefined) {
      const n = nRanks;
      const factor: Record<NcclCollective, number> = {
        all_reduce: (2 * (n - 1)) / n,
        all_gather: (n - 1) / n,
        reduce_scatter: (n - 1) / n,
        alltoall: (n - 1) / n,
        gather: (n - 1) / n,
        scatter: (n - 1) / n,
        broadcast: 1,
        reduce: 1,
        sendrecv: 1,
        hypercube: 1,
      };
      // busbw and algbw are rounded to 2 decimals; at large sizes the ratio is within ~1%.
      keep(candidates.filter((c) => Math.abs(factor[c] - ratio) / factor[c] < 0.03));
    }
  }
  return candidates.length === 1 ? { collective: candidates[0], candidates } : { candidates };
}

/** busbw/algbw of the row with the largest algbw (least rounding error). */
export function busAlgRatio(rows: NcclRow[]): number | undefined {
  let best: { alg: number; bus: number } | undefined;
  for (const r of rows) {
    for (const p of [r.outOfPlace, r.inPlace]) {
      if (p && p.algbwGBs > 0 && (!best || p.algbwGBs > best.alg)) best = { alg: p.algbwGBs, bus: p.busbwGBs };
    }
  }
  return best && best.alg >= 0.5 ? best.bus / best.alg : undefined;
}

/** Result of {@link inferFromRatio}: the collective and, where the ratio tells it, the rank count. */
export interface RatioGuess {
  collective?: NcclCollective;
  candidates: NcclCollective[];
  ratio?: number;
  /** n solved from the ratio: 2(n-1)/n or (n-1)/n; absent for ratio-1 collectives. */
  ranks?: number;
}

type Family = 'twice' | 'once' | 'one';
const FAMILY: Record<NcclCollective, Family> = {
  all_reduce: 'twice',
  all_gather: 'once',
  reduce_scatter: 'once',
  alltoall: 'once',
  gather: 'once',
  scatter: 'once',
  broadcast: 'one',
  reduce: 'one',
  sendrecv: 'one',
  hypercube: 'one',
};

/**
 * The rank count is unknown (a table pasted without its `# Using devices` block): solve n from
 * the ratio itself. busbw/algbw is 2(n-1)/n (all_reduce: n = 2/(2-r)), (n-1)/n (all_gather,
 * reduce_scatter, ...: n = 1/(1-r)) or 1 (broadcast, reduce, ...). A family fits when n comes out
 * a whole number >= 2 (the ratio is rounded: 2 decimals on each bandwidth).
 */
export function inferFromRatio(rows: NcclRow[], candidates: NcclCollective[]): RatioGuess {
  const ratio = busAlgRatio(rows);
  if (ratio === undefined) return { candidates };
  const fits = new Map<Family, number | undefined>();
  const solve = (n: number, factor: (k: number) => number): number | undefined => {
    const k = Math.round(n);
    return k >= 2 && Math.abs(factor(k) - ratio) / factor(k) < 0.005 ? k : undefined;
  };
  if (Math.abs(ratio - 1) < 0.005) fits.set('one', undefined);
  if (ratio > 1 && ratio < 2) {
    const k = solve(2 / (2 - ratio), (m) => (2 * (m - 1)) / m);
    if (k !== undefined) fits.set('twice', k);
  }
  if (ratio > 0 && ratio < 1) {
    const k = solve(1 / (1 - ratio), (m) => (m - 1) / m);
    if (k !== undefined) fits.set('once', k);
  }
  const left = candidates.filter((c) => fits.has(FAMILY[c]));
  const guess: RatioGuess = { candidates: left, ratio };
  if (left.length !== 1) return guess;
  guess.collective = left[0];
  const ranks = fits.get(FAMILY[left[0]]);
  if (ranks !== undefined) guess.ranks = ranks;
  return guess;
}
