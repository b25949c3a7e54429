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
function busAlgRatio(rows: NcclRow[]): number | undefined {
  let best: { alg: number; bus: number } | undefined;
  for (const r of rows) {
    for (const p of [r.outOfPlace, r.inPlace]) {
      if (p && p.algbwGBs > 0 && (!best || p.algbwGBs > best.alg)) best = { alg: p.algbwGBs, bus: p.busbwGBs };
    }
  }
  return best && best.alg >= 0.5 ? best.bus / best.alg : undefined;
}
