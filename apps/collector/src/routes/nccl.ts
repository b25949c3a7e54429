import type { FastifyInstance } from 'fastify';
import {
  findingInScope,
  runFabricScope,
  scopeIndex,
  type NcclRunDetailReply,
  type NcclRunRow,
  type ScopeIndex,
} from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { createFindingsRepo, toFindingRow } from '../db/findings-repo.ts';
import { topologyVersion } from '../db/topology-counters.ts';
import { windowProblems } from '../queries/nccl-checks.ts';
import { failureKind, RETRY_AFTER_S } from '../queries/scan-failure.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const labelsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cluster: { type: 'string', maxLength: 100 },
    nodes: { type: 'integer', minimum: 1, maximum: 100000 },
    gpuModel: { type: 'string', maxLength: 100 },
    hcaCount: { type: 'integer', minimum: 0, maximum: 1000 },
    runBy: { type: 'string', maxLength: 100 },
    // Sample data (the demo's history) as opposed to a run measured on this fabric.
    demo: { type: 'boolean' },
  },
} as const;

export async function ncclRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const repo = createNcclRepo(deps.db);
  const findings = createFindingsRepo(deps.db);
  // A run's page scopes its findings on the whole topology (31k links at 10k GPUs): it is read
  // and indexed again only when a topology write bumped the version.
  let topology: { version: number; index: ScopeIndex } | undefined;
  const topologyIndex = (): ScopeIndex => {
    const version = topologyVersion(deps.db);
    if (topology?.version !== version) topology = { version, index: scopeIndex(repo.scopeGraph()) };
    return topology.index;
  };

  app.get<{ Querystring: { collective?: string; from?: number; to?: number; limit: number }; Reply: NcclRunRow[] }>(
    '/api/nccl/runs',
    {
      schema: {
        description: 'nccl-tests runs by the time they happened (`at`), newest first; from/to are epoch milliseconds.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            collective: { type: 'string', maxLength: 50 },
            from: { type: 'integer', minimum: 0 },
            to: { type: 'integer', minimum: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 10000, default: 500 },
          },
        },
        response: replySchema('GET /api/nccl/runs'),
      },
    },
    async (req) => repo.list(req.query),
  );

  app.get<{ Params: { id: number }; Reply: NcclRunDetailReply }>(
    '/api/nccl/runs/:id',
    {
      schema: {
        description:
          'One run: per-size rows, GDR evidence, import warnings, and the fabric findings open during its ' +
          "window on its hosts' links and the switches above them (plus SM findings).",
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        response: replySchema('GET /api/nccl/runs/:id'),
      },
    },
    async (req, reply) => {
      const r = repo.get(req.params.id);
      if (!r)
        return reply
          .code(404)
          .send({ statusCode: 404, error: 'Not Found', message: `no nccl run ${req.params.id}` } as never);
      const [from, to] = r.window;
      const scope = runFabricScope(topologyIndex(), r.run.hosts);
      // On the run's part of the fabric, or about the subnet as a whole (an SM failover stalls every run).
      const around = findings
        .openDuring(from, to, ['port', 'link', 'sm', 'fabric'])
        .filter((f) => f.subjectType === 'sm' || findingInScope(scope, f.subjectKey));
      const own = findings
        .list({ subjectKeyPrefix: `run:${r.run.id}`, limit: 50 })
        .filter((f) => f.subjectKey === `run:${r.run.id}`);
      return {
        run: r.run,
        rows: r.rows,
        gdrEvidence: r.gdrEvidence,
        correlatedFindings: [...own, ...around].map(toFindingRow),
        correlation: {
          from,
          to,
          hosts: scope.hosts.map((h) => ({ host: h.host, hcas: h.hcas.length })),
          unmatchedHosts: scope.unmatchedHosts,
          links: scope.links.size,
          switches: scope.nodes.size - scope.hcas.size,
          tiers: scope.tiers,
          pathFindings: around.filter((f) => f.subjectType !== 'sm').length,
          flagged: around.some((f) => f.subjectType !== 'sm'),
        },
        importWarnings: r.warnings,
      };
    },
  );

  app.post<{
    Body: {
      text: string;
      name?: string;
      labels?: Record<string, string | number | boolean>;
      startedAt?: number;
      finishedAt?: number;
    };
  }>(
    '/api/nccl-runs',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        description:
          'Import one nccl-tests stdout (with NCCL_DEBUG=INFO lines if available). startedAt/finishedAt (epoch ' +
          'ms) date the run: after 2000, not in the future, start <= finish, at most 24 h apart. Needs the ' +
          'bearer token.',
        security: [{ bearer: [] }],
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['text'],
          properties: {
            text: { type: 'string', minLength: 1 },
            name: { type: 'string', maxLength: 200, pattern: '^[^/\\\\\\u0000]*$' },
            labels: labelsSchema,
            startedAt: { type: 'integer', minimum: 0 },
            finishedAt: { type: 'integer', minimum: 0 },
          },
        },
        response: replySchema('POST /api/nccl-runs'),
      },
    },
    async (req, reply) => {
      const problems = windowProblems(req.body, Date.now());
      if (problems.length > 0)
        return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `body: ${problems.join('; ')}` });
      const { scan, runId } = await deps.scans.importNccl(
        req.body.text,
        req.body.labels ?? {},
        req.body.name ?? 'upload.txt',
        'api',
        {
          startedAt: req.body.startedAt,
          finishedAt: req.body.finishedAt,
        },
      );
      if (runId === null) {
        // Only bad data is the sender's to fix (422). A database another writer held too long
        // (503 + Retry-After) or one refusing writes (503) says nothing about the upload:
        // a job script must retry, not give up on a good output.
        const kind = failureKind(scan);
        if (kind === 'busy') reply.header('retry-after', String(RETRY_AFTER_S));
        const [code, error] = kind === 'input' ? [422, 'Unprocessable Entity'] : [503, 'Service Unavailable'];
        return reply.code(code).send({ statusCode: code, error, message: scan.error ?? 'import failed', scan });
      }
      return reply.code(201).send({ id: runId, scan, run: repo.get(runId)!.run });
    },
  );
}
