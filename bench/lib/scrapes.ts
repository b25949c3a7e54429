/**
 * `/metrics` as Prometheus meets it: a scrape arrives whenever its interval says, not between
 * sweeps. A scrape that lands during a sweep waits for the sweep's synchronous blocks (parse,
 * merge, the store transaction), so two back-to-back scrapes said little (270-900 ms at 45k
 * GPUs from run to run). Here each scrape follows a uniform random wait, so over a run the
 * scrapes fall at random phases of the sweep cycle; the figure is their p95, with the median and
 * the maximum beside it.
 */
import { maxOf, median, percentile, type Row } from './stats.ts';

export interface ScrapeTimes {
  /** Every scrape's time in ms, in the order taken. */
  ms: number[];
  /** The random waits before each scrape, in ms. */
  waitsMs: number[];
}

/**
 * `n` scrapes, each after a random wait in [0, spreadMs). `random` and `sleep` are for tests.
 */
export async function scrapeAtRandom(
  n: number,
  spreadMs: number,
  scrape: () => Promise<void>,
  random: () => number = Math.random,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<ScrapeTimes> {
  const out: ScrapeTimes = { ms: [], waitsMs: [] };
  for (let i = 0; i < n; i++) {
    const wait = Math.floor(random() * spreadMs);
    out.waitsMs.push(wait);
    await sleep(wait);
    const t = performance.now();
    await scrape();
    out.ms.push(performance.now() - t);
  }
  return out;
}

/** The row: p95 of the scrapes against the target, median and maximum in the note. */
export function scrapeRow(
  base: Pick<Row, 'stage' | 'what' | 'size'> & { target: NonNullable<Row['target']> },
  times: number[],
  extra: string,
): Row {
  return {
    ...base,
    value: times.length ? percentile(times, 95) : Number.NaN,
    unit: 'ms',
    runs: times.length,
    note:
      `p95 of ${times.length} scrapes at random moments of the sweep cycle; median ${median(times).toFixed(0)} ms, ` +
      `max ${maxOf(times).toFixed(0)} ms; ${extra}`,
  };
}
