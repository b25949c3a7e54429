import type { FastifyInstance } from 'fastify';
import type { NotificationsReply, NotificationTarget } from '@ibwatch/fabric';
import { replySchema } from '@ibwatch/fabric/api-schemas';
import type { RouteDeps } from './deps.ts';
import { createNotifyRepo } from '../db/notify-repo.ts';

/** `GET /api/notifications`: the alert targets and the deliveries that failed (docs/alerting.md). */
export async function notificationRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const repo = createNotifyRepo(deps.db);
  app.get<{ Reply: NotificationsReply }>(
    '/api/notifications',
    {
      schema: {
        description:
          'Where findings are pushed (Alertmanager, webhook) and the deliveries that failed after all their tries, ' +
          'newest first.',
        response: replySchema('GET /api/notifications'),
      },
    },
    async () => {
      const n = deps.config.notify;
      const targets: NotificationTarget[] = [];
      for (const [name, url] of [
        ['alertmanager', n.alertmanagerUrl],
        ['webhook', n.webhookUrl],
      ] as const) {
        if (url) targets.push({ name, origin: new URL(url).origin, ...repo.targetState(name) });
      }
      return { targets, failures: repo.failures(100) };
    },
  );
}
