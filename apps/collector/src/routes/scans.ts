import type { FastifyInstance } from 'fastify';
import type { ScanRow } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { replySchema, SCAN_KINDS } from '@ibwatch/fabric/api-schemas';

const WRITE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function scanRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const scans = createScansRepo(deps.db);

  app.get<{ Querystring: { limit: number; kind?: string; status?: string }; Reply: ScanRow[] }>(
    '/api/scans',
    {
      schema: {
        description: 'Scan history, newest first.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            kind: { type: 'string', enum: [...SCAN_KINDS] },
            status: { type: 'string', enum: ['running', 'ok', 'partial', 'failed'] },
          },
        },
        response: replySchema('GET /api/scans'),
      },
    },
    async (req) => scans.list(req.query),
  );

  app.get<{ Params: { id: number } }>(
    '/api/scans/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        response: replySchema('GET /api/scans/:id'),
      },
    },
    async (req, reply) =>
      scans.get(req.params.id) ??
      reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no scan ${req.params.id}` }),
  );

  app.post<{ Body: { kind: 'pm' | 'sm' | 'topology' | 'ibdiagnet' } }>(
    '/api/scans',
    {
      config: WRITE_LIMIT,
      schema: {
        description: 'Run a scan now (the same pipeline as the schedule). Needs the bearer token.',
        security: [{ bearer: [] }],
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: { type: 'string', enum: ['pm', 'sm', 'topology', 'ibdiagnet'] } },
        },
        response: replySchema('POST /api/scans'),
      },
    },
    async (req, reply) => {
      const row = await deps.scans.run(req.body.kind, 'api');
      return reply.code(row.status === 'failed' ? 200 : 201).send(row);
    },
  );
}
