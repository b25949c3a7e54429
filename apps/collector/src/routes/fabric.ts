import type { FastifyInstance } from 'fastify';
import type { FabricSummary, TopologyReply } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { smSummary } from './sm.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { PM_KINDS } from '../scans/findings-sync.ts';
import { contentStamp, stamped, writeStamp } from '../db/stamps.ts';
import { createTopologyJson } from '../db/topology-json.ts';
import { ReplyCache } from './reply-cache.ts';

const DAY = 86_400_000;
/** The summary has time windows (failovers in 24 h, nccl over 30 d) that move without a write. */
const SUMMARY_MAX_AGE_MS = 5_000;

export async function fabricRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const q = createFabricQueries(deps.db, deps.names);
  const findings = createFindingsRepo(deps.db);
  const scans = createScansRepo(deps.db);
  const nccl = createNcclRepo(deps.db);
  const topoJson = createTopologyJson(deps.db, deps.names);
  // Content stamps, computed only after a commit: scan rows, SM observations and nccl imports
  // commit often without touching nodes or links.
  const nodesStamp = contentStamp(deps.db, () => q.nodesStamp());
  const linksStamp = contentStamp(deps.db, () => q.linksStamp());
  const topologyStamp = () => `${nodesStamp()}|${linksStamp()}`;
  // Counting 69k ports and 31k links took ~30 ms of a ~45 ms summary build at 10k GPUs.
  const counts = stamped(topologyStamp, () => q.counts());
  // Rebuilt after any commit (every scan writes its scan row, and lastScans shows it).
  const summaryCache = new ReplyCache(writeStamp(deps.db), { maxKeys: 1, maxAgeMs: SUMMARY_MAX_AGE_MS });
  // At 10k GPUs ~11k nodes, ~31k links, 10 MB of JSON: built once, and again only when a commit
  // changed what it shows. A sweep recolours links but leaves nodes alone: their part is kept.
  const topologyCache = new ReplyCache(topologyStamp, { maxKeys: 1 });
  const nodesJson = stamped(nodesStamp, () => JSON.stringify(q.nodes()));

  app.get<{ Reply: FabricSummary }>(
    '/api/summary',
    {
      schema: {
        description:
          'Fabric health at a glance: counts, degraded links, SM status, last scans, nccl trend, open findings.',
      },
    },
    async (req, reply) =>
      summaryCache.send(req, reply, '', (): FabricSummary => {
        const now = Date.now();
        // Ports and links over a counter threshold: one per subject however many counters are
        // high on it, and only PM kinds (flaps and congestion included; topology kinds are not).
        const overThreshold = new Set(
          q
            .activeFindingSubjects()
            .filter((f) => (f.subjectType === 'port' || f.subjectType === 'link') && PM_KINDS(f.kind))
            .map((f) => f.subjectKey),
        ).size;
        return {
          generatedAt: now,
          expectedRate: deps.config.expectedRate,
          ...counts(),
          portsOverThreshold: overThreshold,
          findingsBySeverity: findings.countOpenBySeverity(),
          sm: smSummary(deps, now),
          lastScans: scans.latestPerKind(),
          ncclTrend: nccl.trend(now - 30 * DAY, now),
        };
      }),
  );

  app.get<{ Reply: TopologyReply }>(
    '/api/topology',
    { schema: { description: 'Every node with its tier, rail and rack, and every link with its health.' } },
    // The text of a TopologyReply: {generatedAt, nodes, links}, the links serialised by SQLite.
    async (req, reply) =>
      topologyCache.sendJson(
        req,
        reply,
        '',
        () => `{"generatedAt":${Date.now()},"nodes":${nodesJson()},"links":${topoJson.linksJson()}}`,
      ),
  );
}
