import type { FastifyInstance } from 'fastify';
import type { BandwidthReport } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { bandwidthCsv, bandwidthReporter, isoDay } from '../queries/bandwidth-report.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const query = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } },
} as const;

export async function reportRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const build = bandwidthReporter(deps.db);
  app.get<{ Querystring: { from?: number; to?: number }; Reply: BandwidthReport }>(
    '/api/reports/bandwidth',
    {
      schema: {
        description:
          'Bandwidth report for a period (default: the last 7 days) by the time runs happened; from/to epoch ms.',
        querystring: query,
        response: replySchema('GET /api/reports/bandwidth'),
      },
    },
    async (req) => build(req.query),
  );
  app.get<{ Querystring: { from?: number; to?: number } }>(
    '/api/reports/bandwidth.csv',
    {
      schema: {
        description: 'The bandwidth report as CSV.',
        querystring: query,
        response: replySchema('GET /api/reports/bandwidth.csv'),
      },
    },
    async (req, reply) => {
      const r = build(req.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ibwatch-bandwidth-${isoDay(r.from)}-to-${isoDay(r.to)}.csv"`,
        )
        .send(bandwidthCsv(r));
    },
  );
}
