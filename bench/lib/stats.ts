/** Timing helpers and the result rows every stage returns. */

interface RowBase {
  stage: string;
  /** What was measured (e.g. "one PM sweep: storePm"). */
  what: string;
  size: string;
  /** Median (or the single figure) in `unit`. */
  value: number;
  unit: 'ms' | 'MB' | 'MB/s' | 'x' | 'GB' | 'count' | 's' | '%';
  runs: number;
  /** The floor this figure is compared with, when one is named (same unit as value). */
  floor?: { what: string; value: number };
  note?: string;
}

export interface Target {
  op: '<' | '>=';
  value: number;
}

/**
 * One printed figure. Every figure carries a target: a bound on its value (`target`, in `unit`)
 * or on its ratio to the floor (`ratioMax`), or both, so that each line says ok or MISSED.
 */
export type Row = RowBase &
  (
    | { target: Target; ratioMax?: number }
    | { target?: Target; ratioMax: number; floor: { what: string; value: number } }
    /** A stage that failed: its figures are missing, and so MISSED. */
    | { failed: true; target?: undefined; ratioMax?: undefined }
  );

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The largest of `xs` (-Infinity for none), without spreading a long array into arguments. */
export const maxOf = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity);

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Runs `fn` `runs` times (after `warmup` unmeasured runs) and returns every duration in ms. */
export async function times(runs: number, fn: (i: number) => unknown, warmup = 0): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** `ok`, or `MISSED` with what was missed; a figure that could not be measured (NaN) is MISSED. */
export function verdict(r: Row): string {
  if ('failed' in r) return 'MISSED (stage failed)';
  if (!Number.isFinite(r.value)) return 'MISSED (not measured)';
  const bad: string[] = [];
  if (r.target && !(r.target.op === '<' ? r.value < r.target.value : r.value >= r.target.value)) bad.push('target');
  if (r.ratioMax !== undefined && r.floor && r.value / r.floor.value >= r.ratioMax) bad.push('ratio');
  return bad.length ? `MISSED (${bad.join(', ')})` : 'ok';
}

const fmt = (v: number, unit: string): string => {
  if (unit === 'count') return String(Math.round(v));
  const d = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(d)} ${unit}`;
};

export function targetText(r: Row): string {
  const parts: string[] = [];
  if (r.target) parts.push(`${r.target.op} ${fmt(r.target.value, r.unit)}`);
  if (r.ratioMax !== undefined) parts.push(`< ${r.ratioMax}x floor`);
  return parts.join(', ');
}

/** One aligned table (also valid Markdown when `markdown`). */
export function table(rows: Row[], markdown = false): string {
  const head = ['stage', 'measure', 'size', 'median', 'runs', 'floor', 'ratio', 'target', 'verdict'];
  const body = rows.map((r) => [
    r.stage,
    r.what,
    r.size,
    fmt(r.value, r.unit),
    String(r.runs),
    r.floor ? `${fmt(r.floor.value, r.unit)} (${r.floor.what})` : '',
    r.floor ? `${(r.value / r.floor.value).toFixed(2)}x` : '',
    targetText(r),
    verdict(r),
  ]);
  if (markdown) {
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    return [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...body.map((b) => `| ${b.map(esc).join(' | ')} |`),
    ].join('\n');
  }
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(w[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...body.map(line)].join('\n');
}

export const mb = (bytes: number): number => bytes / 1e6;
