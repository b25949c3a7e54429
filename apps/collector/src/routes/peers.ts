import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

/**
 * The other collectors this dashboard can list (one collector per fabric, IBWATCH_PEERS):
 * the UI links to each; their own /metrics feed a site-wide Prometheus.
 */
export async function peerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.get(
    '/api/peers',
    {
      schema: {
        description: 'Collectors of other fabrics, from IBWATCH_PEERS.',
        response: replySchema('GET /api/peers'),
      },
    },
    async () => ({
      self: { source: deps.config.source },
      peers: deps.config.peers,
    }),
  );
}
