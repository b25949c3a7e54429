import type { FastifyInstance } from 'fastify';
import type { FabricSummary, TopologyReply } from '@ibwatch/fabric';
import type { AppDeps } from '../app.ts';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { smSummary } from './sm.ts';
import { createNcclRepo } from '../db/nccl-repo.ts';
import { PM_KINDS } from '../scans/findings-sync.ts';

const DAY = 86_400_000;
const TOPOLOGY_TTL_MS = 5_000;

export async function fabricRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const q = createFabricQueries(deps.db, deps.names);
  const findings = createFindingsRepo(deps.db);
  const scans = createScansRepo(deps.db);
  const nccl = createNcclRepo(deps.db);
  let topoCache: { stamp: string; at: number; body: string } | null = null;

  app.get<{ Reply: FabricSummary }>(
    '/api/summary',
    { schema: { description: 'Fabric health at a glance: counts, degraded links, SM status, last scans, nccl trend, open findings.' } },
    async () => {
      const now = Date.now();
      const counts = q.counts();
      // Ports and links over a counter threshold: one per subject however many counters are
      // high on it, and only PM kinds (flaps and congestion included; topology kinds are not).
      const overThreshold = new Set(
        findings
          .active()
          .filter((f) => (f.subjectType === 'port' || f.subjectType === 'link') && PM_KINDS(f.kind))
          .map((f) => f.subjectKey),
      ).size;
      return {
        generatedAt: now,
        expectedRate: deps.config.expectedRate,
        ...counts,
        portsOverThreshold: overThreshold,
        findingsBySeverity: findings.countOpenBySeverity(),
        sm: smSummary(deps, now),
        lastScans: scans.latestPerKind(),
        ncclTrend: nccl.trend(now - 30 * DAY, now),
      };
    },
  );

  app.get<{ Reply: TopologyReply }>(
    '/api/topology',
    { schema: { description: 'Every node with its tier, rail and rack, and every link with its health.' } },
    async (_req, reply) => {
      // At 10k GPUs this is ~11k nodes, ~30k links, ~5 MB of JSON: built once and served to every
      // client until the topology or any link's health changes (or TOPOLOGY_TTL_MS passes).
      const now = Date.now();
      const stamp = q.topologyStamp();
      if (!topoCache || topoCache.stamp !== stamp || now - topoCache.at > TOPOLOGY_TTL_MS) {
        topoCache = { stamp, at: now, body: JSON.stringify({ generatedAt: now, nodes: q.nodes(), links: q.links() } satisfies TopologyReply) };
      }
      // The body is a TopologyReply, already serialised (Fastify sends strings as they are).
      return reply.type('application/json; charset=utf-8').send(topoCache.body as unknown as TopologyReply);
    },
  );
}
