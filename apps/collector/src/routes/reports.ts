import type { FastifyInstance } from 'fastify';
import { bandwidthReport, roundGBs, type BandwidthReport } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { toCsv } from '../csv.ts';

const query = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } },
} as const;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const gbs = (x: number | null) => (x === null ? '' : roundGBs(x).toFixed(1));

/**
 * The report as CSV: one row per collective and scope, GB/s to one decimal, and the period on
 * every row (a spreadsheet pasted into a review keeps what it covers).
 */
export function bandwidthCsv(r: BandwidthReport): string {
  const from = new Date(r.from).toISOString();
  const to = new Date(r.to).toISOString();
  return toCsv(
    [
      'period_from',
      'period_to',
      'collective',
      'scope',
      'runs',
      'runs_with_target',
      'passed',
      'pass_rate',
      'best_GBs',
      'median_GBs',
      'worst_GBs',
      'target_GBs',
    ],
    r.byCollective.map((c) => [
      from,
      to,
      c.collective,
      c.scope ?? 'unknown',
      c.runs,
      c.withTarget,
      c.passed,
      c.withTarget ? (c.passed / c.withTarget).toFixed(3) : '',
      gbs(c.bestGBs),
      gbs(c.medianGBs),
      gbs(c.worstGBs),
      gbs(c.targetGBs),
    ]),
  );
}

export async function reportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const nccl = createNcclRepo(deps.db);
  const findings = createFindingsRepo(deps.db);
  const build = (q: { from?: number; to?: number }) => {
    const to = q.to ?? Date.now();
    const from = q.from ?? to - 7 * 86_400_000;
    return bandwidthReport(
      nccl.reportRuns(from, to),
      findings.openDuring(from, to, ['port', 'link', 'sm', 'fabric']),
      from,
      to,
    );
  };
  app.get<{ Querystring: { from?: number; to?: number }; Reply: BandwidthReport }>(
    '/api/reports/bandwidth',
    {
      schema: {
        description:
          'Bandwidth report for a period (default: the last 7 days) by the time runs happened; from/to epoch ms.',
        querystring: query,
      },
    },
    async (req) => build(req.query),
  );
  app.get<{ Querystring: { from?: number; to?: number } }>(
    '/api/reports/bandwidth.csv',
    { schema: { description: 'The bandwidth report as CSV.', querystring: query } },
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
