import type { FastifyInstance } from 'fastify';
import type { WatchReply } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { watchList } from '../analysis/watch.ts';

const end = {
  type: 'object',
  required: ['guid', 'port', 'name'],
  properties: { guid: { type: 'string' }, port: { type: 'integer' }, name: { type: 'string' } },
} as const;

/** The reply schema of `GET /api/watch` (the shape of WatchReply in packages/fabric/src/api/watch.ts). */
export const WATCH_REPLY_SCHEMA = {
  type: 'object',
  required: ['generatedAt', 'windowHours', 'bucketMinutes', 'method', 'entries'],
  properties: {
    generatedAt: { type: 'number' },
    windowHours: { type: 'number' },
    bucketMinutes: { type: 'number' },
    method: { type: 'string', enum: ['theil-sen'] },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'portKey',
          'port',
          'remote',
          'counter',
          'rateNowPerHour',
          'fitNowPerHour',
          'slopePerHourPerHour',
          'tau',
          'thresholdPerHour',
          'projectedCrossAt',
          'points',
          'series',
          'finding',
        ],
        properties: {
          portKey: { type: 'string' },
          port: end,
          remote: { anyOf: [end, { type: 'null' }] },
          counter: { type: 'string' },
          rateNowPerHour: { type: 'number' },
          fitNowPerHour: { type: 'number' },
          slopePerHourPerHour: { type: 'number' },
          tau: { type: 'number' },
          thresholdPerHour: { type: 'number' },
          projectedCrossAt: { type: 'number' },
          points: { type: 'integer' },
          series: {
            type: 'array',
            items: {
              type: 'object',
              required: ['at', 'perHour'],
              properties: { at: { type: 'number' }, perHour: { type: 'number' } },
            },
          },
          finding: { anyOf: [{ type: 'string', enum: ['info', 'minor', 'major', 'critical'] }, { type: 'null' }] },
        },
      },
    },
  },
} as const;

/** The early-warning watch list: rising error rates still below the major threshold. */
export async function watchRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.get<{ Reply: WatchReply }>(
    '/api/watch',
    {
      schema: {
        description:
          'Ports whose SymbolErrorCounter, LinkErrorRecoveryCounter or PortRcvErrors rate rises (Theil-Sen slope ' +
          'over IBWATCH_WATCH_WINDOW_H) while still below the major threshold, with the projected crossing time.',
        response: { 200: WATCH_REPLY_SCHEMA },
      },
    },
    async () => watchList(deps.db, deps.config, deps.names),
  );
}
