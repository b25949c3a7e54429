import type { FastifyInstance } from 'fastify';
import type { BaselineValidationReply, ValidationLink } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { validationReport } from '../analysis/as-built.ts';
import { toCsv, UTF8_BOM } from '../csv.ts';

const end = {
  type: 'object',
  required: ['guid', 'port', 'name'],
  properties: { guid: { type: 'string' }, port: { type: 'integer' }, name: { type: 'string' } },
} as const;
const link = {
  anyOf: [
    {
      type: 'object',
      required: ['a', 'b', 'width', 'speed'],
      properties: {
        a: end,
        b: end,
        width: { type: ['string', 'null'] },
        speed: { type: ['string', 'null'] },
      },
    },
    { type: 'null' },
  ],
} as const;
const KINDS = ['missing-link', 'extra-link', 'moved-cable', 'wrong-rail', 'degraded'] as const;

/** The reply schema of `GET /api/baseline/validation`: BaselineValidationReply (packages/fabric/src/api). */
export const VALIDATION_REPLY_SCHEMA = {
  type: 'object',
  required: ['baseline', 'linksNow', 'checkedAt', 'counts', 'rows'],
  properties: {
    baseline: {
      anyOf: [
        {
          type: 'object',
          required: ['setAt', 'source', 'links'],
          properties: { setAt: { type: 'number' }, source: { type: 'string' }, links: { type: 'integer' } },
        },
        { type: 'null' },
      ],
    },
    linksNow: { type: 'integer' },
    checkedAt: { type: 'number' },
    counts: {
      type: 'object',
      required: [...KINDS],
      properties: Object.fromEntries(KINDS.map((k) => [k, { type: 'integer' }])),
    },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'asBuilt', 'now', 'detail'],
        properties: {
          kind: { type: 'string', enum: [...KINDS] },
          asBuilt: link,
          now: link,
          detail: { type: 'string' },
        },
      },
    },
  },
} as const;

const linkText = (l: ValidationLink | null) =>
  l ? `${l.a.name} port ${l.a.port} <-> ${l.b.name} port ${l.b.port}` : '';

/** The topology validation report: the fabric now against the as-built (`ibwatch baseline set|import`). */
export async function baselineRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.get<{ Reply: BaselineValidationReply }>(
    '/api/baseline/validation',
    {
      schema: {
        description:
          'The topology validation report: missing and extra links, moved cables, hosts on the wrong rail and links ' +
          'slower or narrower than the as-built cabling.',
        response: { 200: VALIDATION_REPLY_SCHEMA },
      },
    },
    async () => validationReport(deps.db, deps.names),
  );
  app.get(
    '/api/baseline/validation.csv',
    { schema: { description: 'The topology validation report as CSV (one row per difference).' } },
    async (_req, reply) => {
      const r = validationReport(deps.db, deps.names);
      const csv = toCsv(
        ['kind', 'as built', 'as built rate', 'now', 'now rate', 'detail'],
        r.rows.map((x) => [
          x.kind,
          linkText(x.asBuilt),
          x.asBuilt ? `${x.asBuilt.width ?? ''} ${x.asBuilt.speed ?? ''}`.trim() : '',
          linkText(x.now),
          x.now ? `${x.now.width ?? ''} ${x.now.speed ?? ''}`.trim() : '',
          x.detail,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="ibwatch-topology-validation.csv"')
        .send(UTF8_BOM + csv);
    },
  );
}
