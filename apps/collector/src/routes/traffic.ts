import type { FastifyInstance } from 'fastify';
import type { PortTrafficReply, TrafficHotReply } from '@ibwatch/fabric';
import { replySchema } from '@ibwatch/fabric/api-schemas';
import type { RouteDeps } from './deps.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createTrafficRepo } from '../db/traffic-repo.ts';
import { hotLinks, portTraffic } from '../queries/traffic.ts';

const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
const canon = (g: string) => '0x' + g.slice(2).toLowerCase().padStart(16, '0');

export async function trafficRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const repo = createTrafficRepo(deps.db);
  const q = createFabricQueries(deps.db, deps.names);

  app.get<{ Querystring: { hours: number; limit: number }; Reply: TrafficHotReply }>(
    '/api/traffic/hot',
    {
      schema: {
        description:
          'Top links by utilisation (% of the link data rate) and by PortXmitWait (ticks/s) over the last hours, ' +
          'with the tier of both ends (an uplink to a higher tier is flagged).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            hours: { type: 'integer', minimum: 1, maximum: 168, default: 1 },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 25 },
          },
        },
        response: replySchema('GET /api/traffic/hot'),
      },
    },
    async (req) => hotLinks(repo, deps.names, Date.now(), req.query.hours, req.query.limit),
  );

  app.get<{
    Params: { guid: string; port: number };
    Querystring: { range: keyof typeof RANGES };
    Reply: PortTrafficReply;
  }>(
    '/api/ports/:guid/:port/traffic',
    {
      schema: {
        description:
          'Transmit/receive bytes/s and % of the link data rate and PortXmitWait ticks/s over time: per sweep ' +
          'while the port is among the busiest kept at sweep resolution, hourly average and maximum otherwise.',
        params: {
          type: 'object',
          required: ['guid', 'port'],
          properties: {
            guid: { type: 'string', pattern: '^0x[0-9a-fA-F]{1,16}$' },
            port: { type: 'integer', minimum: 0, maximum: 255 },
          },
        },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { range: { type: 'string', enum: Object.keys(RANGES), default: '24h' } },
        },
        response: replySchema('GET /api/ports/:guid/:port/traffic'),
      },
    },
    async (req, reply) => {
      const guid = canon(req.params.guid);
      const id = q.portId(guid, req.params.port);
      const info = id === null ? undefined : repo.portsInfo([id])[0];
      if (!info)
        return reply
          .code(404)
          .send({ statusCode: 404, error: 'Not Found', message: `no port ${guid} ${req.params.port}` } as never);
      const now = Date.now();
      const span = RANGES[req.query.range];
      const sweeps = span <= deps.config.traffic.recentHours * 3_600_000;
      return { range: req.query.range, ...portTraffic(repo, info, now - span, now, sweeps) };
    },
  );
}
