import type { FastifyInstance } from 'fastify';
import type { SmLogReply, SmRelearnReply, SmReply } from '@ibwatch/fabric';
import { createOpensmLogRepo } from '../db/opensm-log-repo.ts';
import type { RouteDeps } from './deps.ts';
import { smReply } from '../queries/sm-view.ts';
import { RelearnRefused, relearnSms } from '../scans/service.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

export async function smRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.get<{ Querystring: { events: number }; Reply: SmReply }>(
    '/api/sms',
    {
      schema: {
        description:
          'Every Subnet Manager known (answering now, or not seen since a time), the designated SM ports and ' +
          'where they come from, the status verdict and the event timeline (one row per failover).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { events: { type: 'integer', minimum: 1, maximum: 5000, default: 200 } },
        },
        response: replySchema('GET /api/sms'),
      },
    },
    async (req) => smReply(deps, Date.now(), req.query.events),
  );

  app.get<{ Querystring: { limit: number }; Reply: SmLogReply }>(
    '/api/sms/log',
    {
      schema: {
        description:
          "Events from OpenSM's own log (IBWATCH_OPENSM_LOG followed, or `ibwatch import opensm-log`), newest " +
          "first, timed by the SM's stamps: state changes, handovers, SM port down, ERR lines, heavy sweeps; and " +
          'where the log is followed from.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 5000, default: 500 } },
        },
        response: replySchema('GET /api/sms/log'),
      },
    },
    async (req) => ({
      events: createOpensmLogRepo(deps.db).list(req.query.limit),
      follow: deps.opensmFollow?.() ?? null,
    }),
  );

  app.post<{ Reply: SmRelearnReply }>(
    '/api/sms/relearn',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        description:
          'Re-learn the designated SM ports from the SMs answering the next SM scan (run now where the source ' +
          'runs SM scans); known SMs not answering then are forgotten. 409 when IBWATCH_SM_GUIDS sets the list. ' +
          'Needs the bearer token.',
        security: [{ bearer: [] }],
        response: replySchema('POST /api/sms/relearn'),
      },
    },
    async (_req, reply) => {
      try {
        return await relearnSms(deps.db, deps.config, deps.names, deps.scans, 'api');
      } catch (err) {
        if (err instanceof RelearnRefused)
          return reply.code(409).send({ statusCode: 409, error: 'Conflict', message: err.message } as never);
        throw err;
      }
    },
  );
}
