import type { FastifyInstance } from 'fastify';
import type { BandwidthReport } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { bandwidthCsv, bandwidthReporter, bandwidthRunsCsv, isoDay } from '../queries/bandwidth-report.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const query = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } },
} as const;

const csvQuery = {
  ...query,
  properties: { ...query.properties, summary: { type: 'integer', enum: [0, 1], default: 0 } },
} as const;

/** More runs than any period holds in practice; the CSV says so if it is ever reached. */
const CSV_MAX_RUNS = 100_000;

export async function reportRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const build = bandwidthReporter(deps.db);
  const nccl = createNcclRepo(deps.db);
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
  app.get<{ Querystring: { from?: number; to?: number; summary: 0 | 1 } }>(
    '/api/reports/bandwidth.csv',
    {
      schema: {
        description:
          'The runs of the period as CSV, one row per run (time, test, hosts/ranks, GPU model, peak busbw and ' +
          'its size, the largest size busbw, target and profile, verdict, GDR state, flags); summary=1 gives ' +
          'the period summary instead, one row per collective and scope.',
        querystring: csvQuery,
        response: replySchema('GET /api/reports/bandwidth.csv'),
      },
    },
    async (req, reply) => {
      const r = build(req.query);
      const what = req.query.summary === 1 ? 'bandwidth-summary' : 'bandwidth';
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ibwatch-${what}-${isoDay(r.from)}-to-${isoDay(r.to)}.csv"`,
        )
        .send(
          req.query.summary === 1
            ? bandwidthCsv(r)
            : bandwidthRunsCsv(nccl.list({ from: r.from, to: r.to, limit: CSV_MAX_RUNS }), r.from, r.to),
        );
    },
  );
}
