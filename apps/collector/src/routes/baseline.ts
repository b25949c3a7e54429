import type { FastifyInstance } from 'fastify';
import type { BaselineValidationReply, ValidationLink } from '@ibwatch/fabric';
import { replySchema } from '@ibwatch/fabric/api-schemas';
import type { RouteDeps } from './deps.ts';
import { validationReport } from '../analysis/as-built.ts';
import { toCsv, UTF8_BOM } from '../csv.ts';

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
        response: replySchema('GET /api/baseline/validation'),
      },
    },
    async () => validationReport(deps.db, deps.names),
  );
  app.get(
    '/api/baseline/validation.csv',
    {
      schema: {
        description: 'The topology validation report as CSV (one row per difference).',
        response: replySchema('GET /api/baseline/validation.csv'),
      },
    },
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
