import type { FastifyInstance } from 'fastify';
import type { PortTrafficReply, TrafficHotReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createTrafficRepo } from '../db/traffic-repo.ts';
import { hotLinks, portTraffic } from '../queries/traffic.ts';

const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
const canon = (g: string) => '0x' + g.slice(2).toLowerCase().padStart(16, '0');

// Reply schemas, plain JSON schema (the shapes are TrafficHotReply / PortTrafficReply in packages/fabric).
const end = {
  type: 'object',
  required: ['guid', 'port', 'name', 'tier'],
  properties: {
    guid: { type: 'string' },
    port: { type: 'integer' },
    name: { type: 'string' },
    tier: { type: 'string' },
  },
} as const;
const hotLink = {
  type: 'object',
  required: [...end.required, 'remote', 'uplink', 'rate', 'linkGbps', 'txAvgPct', 'txMaxPct', 'rxAvgPct', 'rxMaxPct'],
  properties: {
    ...end.properties,
    remote: { anyOf: [end, { type: 'null' }] },
    uplink: { type: 'boolean' },
    rate: { type: ['string', 'null'] },
    linkGbps: { type: 'number' },
    txAvgPct: { type: 'number' },
    txMaxPct: { type: 'number' },
    rxAvgPct: { type: 'number' },
    rxMaxPct: { type: 'number' },
    waitAvgTps: { type: 'number' },
    waitMaxTps: { type: 'number' },
  },
} as const;
const hotReply = {
  type: 'object',
  required: ['hours', 'from', 'to', 'byUtilisation', 'byXmitWait'],
  properties: {
    hours: { type: 'integer' },
    from: { type: 'number' },
    to: { type: 'number' },
    byUtilisation: { type: 'array', items: hotLink },
    byXmitWait: { type: 'array', items: hotLink },
  },
} as const;
const point = {
  type: 'object',
  required: ['at', 'txBps', 'rxBps', 'txPct', 'rxPct', 'waitTps'],
  properties: Object.fromEntries(
    ['at', 'txBps', 'rxBps', 'txPct', 'rxPct', 'waitTps', 'txMaxPct', 'rxMaxPct', 'waitMaxTps'].map((k) => [
      k,
      { type: 'number' },
    ]),
  ),
} as const;
const portReply = {
  type: 'object',
  required: ['range', 'resolution', 'linkGbps', 'points'],
  properties: {
    range: { type: 'string', enum: Object.keys(RANGES) },
    resolution: { type: 'string', enum: ['sweep', 'hour'] },
    linkGbps: { type: 'number' },
    points: { type: 'array', items: point },
  },
} as const;
const notFoundReply = {
  type: 'object',
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
} as const;

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
        response: { 200: hotReply },
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
        response: { 200: portReply, 404: notFoundReply },
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
