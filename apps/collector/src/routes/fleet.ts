import type { FastifyInstance } from 'fastify';
import type { FleetReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { VERSION } from '../version.ts';
import { PROCESS_STARTED_AT } from '../analysis/fabric-status.ts';
import { createSummaryBuilder } from '../analysis/summary.ts';
import { createFleet } from '../fleet/fleet-service.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

/**
 * The fleet wall (`/fleet` in the dashboard): this fabric and every peer's (IBWATCH_PEERS), each
 * with its status word, broken-now rows, SM state and freshness, read server-side.
 */
export async function fleetRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const summary = createSummaryBuilder(deps.db, deps.names, deps.config);
  const fleet = createFleet({
    fabricName: deps.config.fabricName,
    peers: deps.config.peers,
    peerTokens: deps.config.peerTokens,
    timeoutMs: deps.config.peerTimeoutMs,
    ourVersion: VERSION,
    selfSummary: (now) => summary(now, PROCESS_STARTED_AT),
    log: app.log,
  });
  app.get<{ Reply: FleetReply }>(
    '/api/fleet',
    {
      schema: {
        description:
          'Every fabric of IBWATCH_PEERS and this one: status word, broken-now rows, SM state, freshness. A peer ' +
          'that does not answer is UNREACHABLE, one whose answer cannot be used is ERROR, with the reason and its ' +
          'last summary (stale). The fleet word is the worst. Peers are read at most every 5 s.',
        response: replySchema('GET /api/fleet'),
      },
    },
    async () => fleet.reply(),
  );
}
