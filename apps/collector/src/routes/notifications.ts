import type { FastifyInstance } from 'fastify';
import type { NotificationsReply, NotificationTarget } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createNotifyRepo } from '../db/notify-repo.ts';

const nullable = (type: string) => ({ type: [type, 'null'] });

const REPLY = {
  type: 'object',
  required: ['targets', 'failures'],
  properties: {
    targets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'origin', 'active', 'lastSentAt'],
        properties: {
          name: { type: 'string', enum: ['alertmanager', 'webhook'] },
          origin: { type: 'string' },
          active: { type: 'integer' },
          lastSentAt: nullable('integer'),
        },
      },
    },
    failures: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'target', 'event', 'findingId', 'attempts', 'error', 'firstAt', 'lastAt', 'deliveredAt'],
        properties: {
          id: { type: 'integer' },
          target: { type: 'string' },
          event: { type: 'string' },
          findingId: nullable('integer'),
          attempts: { type: 'integer' },
          error: { type: 'string' },
          firstAt: { type: 'integer' },
          lastAt: { type: 'integer' },
          deliveredAt: nullable('integer'),
        },
      },
    },
  },
};

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
        response: { 200: REPLY },
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
