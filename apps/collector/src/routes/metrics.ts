import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { Exposition } from '../metrics/exposition.ts';
import { cachedPortFamilies } from '../metrics/port-cache.ts';
import { MetricsPortsLimitError } from '../metrics/ports.ts';
import { registry } from '../metrics/registry.ts';
import { createStateFamilies } from '../metrics/state.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

/**
 * `/metrics` in the Prometheus text format, so sites on Prometheus/Grafana scrape each fabric's
 * collector: counters and histograms of what this process did since it started (prom-client),
 * gauges of the current state from the database, and per-port series when
 * IBWATCH_METRICS_PORTS asks for them. docs/metrics.md lists every family.
 */
export async function metricsRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const stateFamilies = createStateFamilies(deps);
  const portsText = cachedPortFamilies(deps);
  app.get('/metrics', { schema: { hide: true, response: replySchema('GET /metrics') } }, async (req, reply) => {
    let ports: Buffer;
    try {
      ports = portsText();
    } catch (err) {
      if (!(err instanceof MetricsPortsLimitError)) throw err;
      // A failed scrape, not a quietly smaller one: Prometheus shows the target down.
      req.log.error(err.message);
      return reply.code(500).type('text/plain; charset=utf-8').send(`${err.message}\n`);
    }
    const e = new Exposition();
    stateFamilies(e, Date.now());
    // prom-client separates families by blank lines: valid, but one family per block reads the same.
    const counters = (await registry.metrics()).replace(/\n\n+/g, '\n');
    // The kept per-port bytes are written as they are: copying them behind the small head cost
    // more than the rest of the scrape at 45k GPUs (a 19 MB Buffer.concat per scrape).
    return reply
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(Readable.from([Buffer.from(counters + e.text()), ports], { objectMode: false }));
  });
}
