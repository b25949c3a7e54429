// The per-port families are cached between scrapes (metrics/port-cache.ts): a scrape must still
// show what the latest sweep read, never the text built before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { appOf, ERROR_PORT, pmSweep, seedCounters, seedFabric, testContext, withErrors } from '../test-support.ts';

const ctx = testContext({ IBWATCH_METRICS_PORTS: 'problem' });
let app: FastifyInstance;
beforeAll(async () => {
  await seedFabric(ctx);
  app = await appOf(ctx);
}, 60_000);
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

const symbolLine = (body: string) =>
  body
    .split('\n')
    .find(
      (l) =>
        l.startsWith('infiniband_switch_port_symbol_error_total{') &&
        l.includes(`guid="${ERROR_PORT.nodeGuid}"`) &&
        l.includes('port="3"'),
    );
const scrape = async () => (await app.inject('/metrics')).body;
const afterScanWork = () => new Promise((resolve) => setImmediate(resolve));

describe('/metrics per-port cache', () => {
  it('a scrape after a new sweep shows the new counters, whether the cache was warmed or not', async () => {
    const first = await scrape();
    expect(await scrape()).toBe(first); // nothing stored in between: the same text
    const before = Number(symbolLine(first)!.split(' ').pop());
    const [, errored] = await seedCounters();
    const more = withErrors(errored, ERROR_PORT, 'SymbolErrorCounter', 700n);
    // One time base: two Date.now() calls a loaded machine's seconds apart made the rate 4.92.
    const t0 = Date.now();
    await pmSweep(ctx, t0 + 60_000, more);
    // No turn of the event loop: the warm-up after the scan has not run, the scrape builds.
    const cold = await scrape();
    expect(Number(symbolLine(cold)!.split(' ').pop())).toBe(before + 700);
    const evenMore = withErrors(more, ERROR_PORT, 'SymbolErrorCounter', 300n);
    await pmSweep(ctx, t0 + 120_000, evenMore);
    await afterScanWork(); // the collector's warm-up after the scan
    const warm = await scrape();
    expect(Number(symbolLine(warm)!.split(' ').pop())).toBe(before + 1000);
    // The rate of the last sweep moves with it (300 errors over the sweeps' 60 s).
    const rate = warm
      .split('\n')
      .find(
        (l) => l.startsWith('ibwatch_port_error_rate{') && l.includes('port="3"') && l.includes('"SymbolErrorCounter"'),
      );
    expect(Number(rate!.split(' ').pop())).toBeCloseTo(5, 6);
  });
});
