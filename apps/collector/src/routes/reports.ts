import type { FastifyInstance } from 'fastify';
import type { BandwidthReport, NcclRunRow, Severity } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { toCsv } from '../csv.ts';

const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The period report managers review: pass rate vs target, best/median/worst, top fabric issues. */
export function bandwidthReport(
  runs: NcclRunRow[],
  issues: { kind: string; title: string; severity: Severity }[],
  from: number,
  to: number,
): BandwidthReport {
  const byCollective = new Map<string, NcclRunRow[]>();
  for (const r of runs) byCollective.set(r.collective, [...(byCollective.get(r.collective) ?? []), r]);
  const passed = runs.filter((r) => r.verdict === 'pass').length;
  const counts = new Map<string, { kind: string; title: string; count: number; severity: Severity }>();
  for (const f of issues) {
    const c = counts.get(f.kind) ?? { kind: f.kind, title: f.title, count: 0, severity: f.severity };
    c.count++;
    counts.set(f.kind, c);
  }
  return {
    from,
    to,
    runs: runs.length,
    passed,
    passRate: runs.length ? passed / runs.length : 0,
    byCollective: [...byCollective].map(([collective, rs]) => {
      const bw = rs.map((r) => r.peakBusbwGBs).filter((x): x is number => x !== null);
      return {
        collective,
        runs: rs.length,
        passed: rs.filter((r) => r.verdict === 'pass').length,
        bestGBs: bw.length ? Math.max(...bw) : null,
        medianGBs: median(bw),
        worstGBs: bw.length ? Math.min(...bw) : null,
        targetGBs: rs.find((r) => r.targetGBs !== null)?.targetGBs ?? null,
      };
    }),
    topFabricIssues: [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 10),
  };
}

const query = {
  type: 'object',
  additionalProperties: false,
  properties: { from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } },
} as const;

export async function reportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const nccl = createNcclRepo(deps.db);
  const findings = createFindingsRepo(deps.db);
  const build = (q: { from?: number; to?: number }) => {
    const to = q.to ?? Date.now();
    const from = q.from ?? to - 7 * 86_400_000;
    const runs = nccl.list({ from, to, limit: 100_000 });
    return bandwidthReport(runs, findings.openDuring(from, to, ['port', 'link', 'sm', 'fabric']), from, to);
  };
  app.get<{ Querystring: { from?: number; to?: number }; Reply: BandwidthReport }>(
    '/api/reports/bandwidth',
    {
      schema: {
        description: 'Bandwidth report for a period (default: the last 7 days); from/to epoch ms.',
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
      const csv = toCsv(
        ['collective', 'runs', 'passed', 'pass_rate', 'best_GBs', 'median_GBs', 'worst_GBs', 'target_GBs'],
        r.byCollective.map((c) => [
          c.collective,
          c.runs,
          c.passed,
          c.runs ? (c.passed / c.runs).toFixed(3) : '',
          c.bestGBs,
          c.medianGBs,
          c.worstGBs,
          c.targetGBs,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="ibwatch-bandwidth.csv"')
        .send(csv);
    },
  );
}
