import type { FastifyInstance } from 'fastify';
import type { WatchReply } from '@ibwatch/fabric';
import { replySchema } from '@ibwatch/fabric/api-schemas';
import type { RouteDeps } from './deps.ts';
import { watchList } from '../analysis/watch.ts';

/** The early-warning watch list: rising error rates still below the major threshold. */
export async function watchRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.get<{ Reply: WatchReply }>(
    '/api/watch',
    {
      schema: {
        description:
          'Ports whose SymbolErrorCounter, LinkErrorRecoveryCounter or PortRcvErrors rate rises (Theil-Sen slope ' +
          'over IBWATCH_WATCH_WINDOW_H) while still below the major threshold, with the projected crossing time.',
        response: replySchema('GET /api/watch'),
      },
    },
    async () => watchList(deps.db, deps.config, deps.names),
  );
}
