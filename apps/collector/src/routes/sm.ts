import type { FastifyInstance } from 'fastify';
import type { SmReply, SmSummary } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { smNamer } from '../scans/sm-store.ts';

export function smSummary(deps: Pick<AppDeps, 'db' | 'names'>, now: number): SmSummary {
  const repo = createSmRepo(deps.db);
  const latest = repo.latest();
  const events = repo.events(1);
  if (!latest) {
    return {
      status: 'unknown',
      masterGuid: null,
      masterName: null,
      masterCount: 0,
      standbyCount: 0,
      failoversLast24h: 0,
      lastChangeAt: null,
    };
  }
  const masters = latest.sms.filter((s) => s.state === 'MASTER');
  return {
    status: masters.length === 1 ? 'ok' : masters.length === 0 ? 'no-master' : 'split-brain',
    masterGuid: masters.length === 1 ? masters[0]!.guid : null,
    // Observations stored before their ports were known carry no name: resolve it now.
    masterName: masters.length === 1 ? (masters[0]!.name ?? smNamer(repo, deps.names)(masters[0]!.guid)) : null,
    masterCount: masters.length,
    standbyCount: latest.sms.filter((s) => s.state === 'STANDBY').length,
    failoversLast24h: repo.failoversSince(now - 86_400_000),
    lastChangeAt: events[0]?.at ?? null,
  };
}

export async function smRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const repo = createSmRepo(deps.db);
  app.get<{ Querystring: { events: number }; Reply: SmReply }>(
    '/api/sms',
    {
      schema: {
        description: 'Every Subnet Manager seen by the last SM scan, the status verdict and the event timeline.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { events: { type: 'integer', minimum: 1, maximum: 5000, default: 200 } },
        },
      },
    },
    async (req) => ({
      summary: smSummary(deps, Date.now()),
      sms: repo.latest()?.sms ?? [],
      events: repo.events(req.query.events),
    }),
  );
}
