import type { FastifyInstance } from 'fastify';
import type { FabricSummary, TopologyFrameReply, TopologyReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { writeStamp } from '../db/stamps.ts';
import { createTopologyJson } from '../db/topology-json.ts';
import { createTopologyFrames } from '../analysis/topology-frame.ts';
import { ReplyCache } from './reply-cache.ts';
import { keptHeadBodies } from './gzip-tail.ts';
import { PROCESS_STARTED_AT } from '../analysis/fabric-status.ts';
import { createSummaryBuilder } from '../analysis/summary.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

/**
 * The summary has time windows (failovers in 24 h, nccl over 30 d) and scan freshness that move
 * without a write: when scans hang nothing is written, and "stale" must not wait for a commit.
 */
const SUMMARY_MAX_AGE_MS = 2_000;

export async function fabricRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  // Server.ts hands in its own, to build the columns after its start-up scans (topology-json.ts).
  const topoJson = deps.topology ?? createTopologyJson(deps.db, deps.names);
  const summary = createSummaryBuilder(deps.db, deps.names, deps.config);
  // Rebuilt after any commit (every scan writes its scan row, and lastScans shows it).
  const summaryCache = new ReplyCache(writeStamp(deps.db), { maxKeys: 1, maxAgeMs: SUMMARY_MAX_AGE_MS });
  // At 45k GPUs 49k nodes, 136k links, ~8 MB of columns: built once, and again only when a commit
  // changed what it shows. A sweep recolours links but leaves the columns alone: they are kept,
  // gzipped, and only the problems list is built and gzipped again (see topology-json.ts).
  // Its stamp is the topology's change counters (migration 0021): three primary-key reads.
  const topologyCache = new ReplyCache(() => topoJson.stamp(), { maxKeys: 1, strongEtag: true });
  const topologyBody = keptHeadBodies();
  const frames = deps.topologyFrames ?? createTopologyFrames(topoJson);
  // One entry per grouping, under the same stamp as the topology's (a sweep's colours move it).
  const frameCache = new ReplyCache(() => topoJson.stamp(), { maxKeys: 2, strongEtag: true });
  const frameBody = { rail: keptHeadBodies(), name: keptHeadBodies() };

  app.get<{ Reply: FabricSummary }>(
    '/api/summary',
    {
      schema: {
        description:
          'Fabric health at a glance: status word (OK, DEGRADED, STALE, CRITICAL), what is broken now, what was ' +
          'fixed lately, scan freshness, counts, SM status, last scans, nccl trend, findings now by severity.',
        response: replySchema('GET /api/summary'),
      },
    },
    async (req, reply) => summaryCache.send(req, reply, '', () => summary(Date.now(), PROCESS_STARTED_AT)),
  );

  app.get<{ Reply: TopologyReply }>(
    '/api/topology',
    {
      schema: {
        description: 'Every node with its tier, rail and rack, and every link with its health.',
        response: replySchema('GET /api/topology'),
      },
    },
    // The bytes of a TopologyReply. `no-cache`: a browser keeps it and revalidates with the ETag
    // (a 304 costs the stamp), so a dashboard reload does not download megabytes again.
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      // The columns built in slices when they are not current, one build for all who wait for it:
      // other requests are served meanwhile.
      await topoJson.ready();
      return topologyCache.sendJson(req, reply, '', () => {
        const { head, tail } = topoJson.parts(Date.now());
        return topologyBody(head, tail);
      });
    },
  );

  app.get<{ Querystring: { group: 'rail' | 'name' }; Reply: TopologyFrameReply }>(
    '/api/topology/frame',
    {
      schema: {
        description:
          "The topology view's first frame: boxes and edges as the view lays them out, HCAs aggregated per leaf, " +
          'coloured by the health of their links. The view draws it before it has read GET /api/topology.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { group: { type: 'string', enum: ['rail', 'name'], default: 'rail' } },
        },
        response: replySchema('GET /api/topology/frame'),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      await topoJson.ready();
      const group = req.query.group;
      return frameCache.sendJson(req, reply, group, () => {
        const { head, tail } = frames.parts(group, Date.now());
        return frameBody[group](head, tail);
      });
    },
  );
}
