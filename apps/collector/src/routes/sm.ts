import type { FastifyInstance } from 'fastify';
import type { SmRelearnReply, SmReply, SmSummary } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { RelearnRefused, relearnSms, smState } from '../scans/sm-view.ts';

export function smSummary(deps: Pick<AppDeps, 'db' | 'config' | 'names'>, now: number): SmSummary {
  return smState(deps.db, deps.config, deps.names, now).summary;
}

/** The SM page's reply (also what `ibwatch sm --json` prints). */
export function smReply(deps: Pick<AppDeps, 'db' | 'config' | 'names'>, now: number, events: number): SmReply {
  const s = smState(deps.db, deps.config, deps.names, now);
  return {
    summary: s.summary,
    sms: s.sms,
    events: s.events(events),
    designation: s.designation,
    lastScan: createScansRepo(deps.db).list({ limit: 1, kind: 'sm' })[0] ?? null,
  };
}

export async function smRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
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
