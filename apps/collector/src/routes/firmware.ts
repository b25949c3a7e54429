import type { FastifyInstance } from 'fastify';
import { firmwareInventory, type FirmwareReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createIbdiagnetRepo } from '../db/ibdiagnet-repo.ts';
import { writeStamp } from '../db/stamps.ts';
import { ReplyCache } from './reply-cache.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

/** Firmware inventory from ibdiagnet runs: device, PSID, versions, the stragglers. */
export async function firmwareRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const repo = createIbdiagnetRepo(deps.db);
  // Firmware changes with an ibdiagnet import only; 11k nodes at 10k GPUs are grouped once per write.
  const cache = new ReplyCache(writeStamp(deps.db), { maxKeys: 1 });
  app.get<{ Reply: FirmwareReply }>(
    '/api/firmware',
    {
      schema: {
        description:
          'Firmware per device and PSID from the newest ibdiagnet runs: versions, node counts, and the nodes ' +
          'behind the newest version.',
        response: replySchema('GET /api/firmware'),
      },
    },
    async (req, reply) =>
      cache.send(req, reply, '', () => firmwareInventory(repo.firmware(deps.names), repo.unreported(), Date.now())),
  );
}
