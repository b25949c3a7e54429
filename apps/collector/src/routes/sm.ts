import type { FastifyInstance } from 'fastify';
import type { SmLogReply, SmRelearnReply, SmReply } from '@ibwatch/fabric';
import { createOpensmLogRepo } from '../db/opensm-log-repo.ts';
import type { RouteDeps } from './deps.ts';
import { smReply } from '../queries/sm-view.ts';
import { RelearnRefused, relearnSms } from '../scans/service.ts';

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
        response: { 200: SM_LOG_REPLY_SCHEMA },
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

const nullable = (type: string) => ({ type: [type, 'null'] });

/** Reply schema of `GET /api/sms/log` (SmLogReply in packages/fabric/src/api/sm.ts). */
const SM_LOG_REPLY_SCHEMA = {
  type: 'object',
  required: ['events', 'follow'],
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'at',
          'time',
          'kind',
          'state',
          'errCode',
          'guid',
          'host',
          'pid',
          'durationMs',
          'message',
          'source',
        ],
        properties: {
          id: { type: 'integer' },
          at: nullable('integer'),
          time: nullable('string'),
          kind: { type: 'string' },
          state: nullable('string'),
          errCode: nullable('string'),
          guid: nullable('string'),
          host: nullable('string'),
          pid: nullable('integer'),
          durationMs: nullable('number'),
          message: { type: 'string' },
          source: { type: 'string' },
        },
      },
    },
    follow: {
      type: ['object', 'null'],
      required: ['path', 'offset', 'lastPollAt', 'error'],
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer' },
        lastPollAt: nullable('integer'),
        error: nullable('string'),
      },
    },
  },
} as const;
