import type { FastifyInstance } from 'fastify';
import type { CounterHistoryReply, LinkSpeed, LinkWidth, PortDetailReply, PortsReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createFindingsRepo, toFindingRow } from '../db/findings-repo.ts';
import { rateThresholds } from '../analysis/thresholds.ts';
import { createCablesRepo } from '../db/cables-repo.ts';
import { createCounterHistory } from '../db/counter-history.ts';
import { writeStamp } from '../db/stamps.ts';
import { ReplyCache } from './reply-cache.ts';
import { worstHealth } from '../queries/link-health.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
/** A history's window moves with the clock: an old point may linger this long without a write. */
const HISTORY_MAX_AGE_MS = 5_000;
const portParams = {
  type: 'object',
  required: ['guid', 'port'],
  properties: {
    guid: { type: 'string', pattern: '^0x[0-9a-fA-F]{1,16}$' },
    port: { type: 'integer', minimum: 0, maximum: 255 },
  },
} as const;

const split = <T extends string>(v: string | null): T[] => (v ? (v.split(',') as T[]) : []);
const notFound = (guid: string, port: number) => ({
  statusCode: 404,
  error: 'Not Found',
  message: `no port ${guid} ${port}`,
});
const canon = (g: string) => '0x' + g.slice(2).toLowerCase().padStart(16, '0');

export async function portRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const q = createFabricQueries(deps.db, deps.names);
  const history = createCounterHistory(deps.db);
  const findings = createFindingsRepo(deps.db);
  const cables = createCablesRepo(deps.db);
  // The ports a NOC has open during an incident, until the next commit: one port's 30-day
  // history was 1.1 s p95 under 20 clients at 10k GPUs (pnpm bench, serve stage; target 30 ms).
  const historyCache = new ReplyCache(writeStamp(deps.db), { maxKeys: 64, maxAgeMs: HISTORY_MAX_AGE_MS });

  app.get<{
    Querystring: { q?: string; state?: string; sort: string; limit: number; offset: number };
    Reply: PortsReply;
  }>(
    '/api/ports',
    {
      schema: {
        description:
          'Ports, filtered by name/GUID/LID and state (Down: a link that went down; Unused: never cabled), ' +
          'sorted and paginated.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 200 },
            // Down: a link that went down; Unused: never cabled (see fabric-queries).
            state: { type: 'string', enum: ['Down', 'Unused', 'Initialize', 'Armed', 'Active'] },
            sort: { type: 'string', pattern: '^-?(name|lid|state|findings|lastSeen)$', default: 'name' },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            offset: { type: 'integer', minimum: 0, default: 0 },
          },
        },
        response: replySchema('GET /api/ports'),
      },
    },
    async (req) => q.ports(req.query),
  );

  app.get<{ Params: { guid: string; port: number }; Reply: PortDetailReply }>(
    '/api/ports/:guid/:port',
    {
      schema: {
        description:
          'One port: state, speed/width actual vs enabled vs supported vs expected, remote end, findings, ' +
          'and the health of its link now.',
        params: portParams,
        response: replySchema('GET /api/ports/:guid/:port'),
      },
    },
    async (req, reply) => {
      const guid = canon(req.params.guid);
      const row = q.portRow(guid, req.params.port);
      if (!row) return reply.code(404).send(notFound(guid, req.params.port) as never);
      const { raw, ...port } = row;
      const key = `${guid}/${req.params.port}`;
      const related = findings.forPort(guid, req.params.port, 5000);
      // The colour of its link, as the topology shows it; a port without a link (a switch port
      // never cabled, a port whose peer is unknown) from its own findings, by the same rule.
      const health =
        q.linkHealthAt(guid, req.params.port) ??
        worstHealth(
          related
            .filter((f) => f.clearedAt === null && f.severity !== 'info' && f.subjectType === 'port')
            .map((f) => ({ kind: f.kind, reason: f.short ?? f.title })),
        );
      return {
        port: {
          ...port,
          openFindings: related.filter((f) => f.state !== 'resolved').length,
          widthEnabled: split<LinkWidth>(raw.width_enabled),
          widthSupported: split<LinkWidth>(raw.width_supported),
          speedEnabled: split<LinkSpeed>(raw.speed_enabled),
          speedSupported: split<LinkSpeed>(raw.speed_supported),
          rack: deps.names.rack(guid),
        },
        expected: deps.config.expectedRate,
        cable: cables.get(key) ?? null,
        findings: related.slice(0, 200).map(toFindingRow),
        health: health.health,
        healthReason: health.reason,
      };
    },
  );

  app.get<{
    Params: { guid: string; port: number };
    Querystring: { range: keyof typeof RANGES };
    Reply: CounterHistoryReply;
  }>(
    '/api/ports/:guid/:port/counters',
    {
      schema: {
        description:
          'Error counter rates over time (per sweep up to 24 h, hourly beyond), thresholds, and state changes.',
        params: portParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { range: { type: 'string', enum: Object.keys(RANGES), default: '24h' } },
        },
        response: replySchema('GET /api/ports/:guid/:port/counters'),
      },
    },
    async (req, reply) => {
      const guid = canon(req.params.guid);
      const portId = q.portId(guid, req.params.port);
      if (portId === null) return reply.code(404).send(notFound(guid, req.params.port) as never);
      const range = req.query.range;
      return historyCache.sendJson(req, reply, `${portId} ${range}`, () => {
        const now = Date.now();
        const from = now - RANGES[range];
        const hourly = range === '7d' || range === '30d';
        // Assembled as text around the points SQLite serialised; the shape is CounterHistoryReply.
        const head: Pick<CounterHistoryReply, 'range' | 'resolution' | 'observedFrom'> = {
          range,
          resolution: hourly ? 'hour' : 'sweep',
          observedFrom: Math.max(from, q.portFirstSeen(portId) ?? from),
        };
        const tail: Pick<CounterHistoryReply, 'thresholds' | 'stateChanges'> = {
          thresholds: rateThresholds(deps.config),
          stateChanges: q.stateHistory(portId, from) as CounterHistoryReply['stateChanges'],
        };
        const points = hourly ? history.hourlyJson(portId, from, now) : history.sweepJson(portId, from, now);
        return `${JSON.stringify(head).slice(0, -1)},"points":${points},${JSON.stringify(tail).slice(1)}`;
      });
    },
  );
}
