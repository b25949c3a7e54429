import type { FastifyInstance } from 'fastify';
import type { HealthReply, WhoamiReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { VERSION } from '../version.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const started = Date.now();

export async function healthRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const scans = createScansRepo(deps.db);
  app.get<{ Reply: HealthReply }>(
    '/api/health',
    {
      schema: {
        description: 'Liveness: the process answers.',
        response: replySchema('GET /api/health'),
      },
    },
    async () => ({
      status: 'ok',
      version: VERSION,
      source: deps.config.source,
      uptimeS: Math.round((Date.now() - started) / 1000),
    }),
  );
  app.get(
    '/api/ready',
    {
      schema: {
        description: 'Readiness: the database answers and at least one scan or import has completed.',
        response: replySchema('GET /api/ready'),
      },
    },
    async (_req, reply) => {
      const ok = scans.completedCount();
      if (ok === 0) return reply.code(503).send({ ready: false, reason: 'no completed scan yet' });
      return { ready: true };
    },
  );
  app.get<{ Reply: WhoamiReply }>(
    '/api/whoami',
    {
      schema: {
        description:
          'The name of the bearer token sent (IBWATCH_TOKENS), null without a valid one: what acknowledgements ' +
          'will be recorded under.',
        response: replySchema('GET /api/whoami'),
      },
    },
    async (req) => ({ name: req.tokenName }),
  );
}
