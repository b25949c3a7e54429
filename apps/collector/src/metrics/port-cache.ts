import type { RouteDeps } from '../routes/deps.ts';
import { createMetricsRepo } from '../db/metrics-repo.ts';
import { contentStamp } from '../db/stamps.ts';
import { Exposition } from './exposition.ts';
import { portFamilies } from './ports.ts';
import { cachedPortSources, topologyStamp } from './port-sources.ts';
import { latestSweep, onScanObserved } from './registry.ts';

/** A collector nobody scraped for this long is not worth warming after each scan. */
const WARM_WHILE_SCRAPED_MS = 10 * 60_000;

/**
 * The per-port families (IBWATCH_METRICS_PORTS=problem|all) as UTF-8 text, built again only when what
 * they show has moved: the topology (names, port states), link health, the last stored sweep's
 * deltas, or the sweep read in memory. At 10k GPUs they are ~95% of a problem-port scrape
 * (3.9 MB, ~100 ms to build), while the state gauges beside them are cheap and depend on the
 * clock (staleness). After each scan the text is built again off the scrape path, as long as
 * Prometheus is scraping, so a scrape right after a sweep does not pay for it.
 */
export function cachedPortFamilies(deps: RouteDeps): () => Buffer {
  const none = Buffer.alloc(0);
  if (deps.config.metricsPorts === 'off') return () => none;
  const repo = createMetricsRepo(deps.db);
  // One reading of the links' stamp per write for both (~0.1 s at 45k GPUs).
  const topo = topologyStamp(deps);
  const deltaAt = contentStamp(deps.db, () => String(repo.lastSweepDeltaAt() ?? ''));
  const stored = () => `${topo()}|${deltaAt()}`;
  const sources = cachedPortSources(deps, topo);
  let key: string | null = null;
  // Kept encoded: turning 3.9 MB of text into bytes on every scrape cost more than building it.
  let bytes: Buffer = none;
  let scrapedAt = 0;
  const build = (): Buffer => {
    const now = `${stored()}|${latestSweep(deps.db)?.at ?? ''}`;
    if (now !== key) {
      const e = new Exposition();
      portFamilies(e, deps, sources);
      bytes = e.bytes();
      key = now;
    }
    return bytes;
  };
  onScanObserved(deps.db, () => {
    if (Date.now() - scrapedAt >= WARM_WHILE_SCRAPED_MS || !deps.db.open) return;
    try {
      build();
    } catch {
      // Only a head start: the next scrape builds it again and answers with the error if it persists.
    }
  });
  return () => {
    scrapedAt = Date.now();
    return build();
  };
}
