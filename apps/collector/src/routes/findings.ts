import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FindingDetail, FindingImpact, FindingRow, WorklistEntry } from '@ibwatch/fabric';
import type { RouteDeps } from './deps.ts';
import { createFindingsRepo, toFindingRow } from '../db/findings-repo.ts';
import type { WorklistFilter } from '../analysis/worklist.ts';
import { WorklistCache } from '../analysis/worklist-cache.ts';
import { impactSettings } from '../analysis/impact.ts';
import { worklistCsv } from '../queries/worklist-csv.ts';
import { writeStamp } from '../db/stamps.ts';
import { endsOfSubjectKey, refreshLinkHealth } from '../scans/service.ts';
import { ReplyCache } from './reply-cache.ts';
import { replySchema } from '@ibwatch/fabric/api-schemas';

const WRITE_LIMIT = { rateLimit: { max: 120, timeWindow: '1 minute' } };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const SEVERITIES = ['critical', 'major', 'minor', 'info'];
/**
 * Acknowledge and resolve take the reason as `note`. Who did it is the name of the token sent
 * (IBWATCH_TOKENS); `by` from a client of the single-token days is refused with that explanation
 * rather than dropped, so a script learns that its name no longer counts.
 */
const actionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    note: { type: 'string', maxLength: 1000, description: 'Why: shown in the finding history.' },
    by: { type: 'string', description: 'No longer accepted: who is the name of the bearer token.' },
  },
} as const;
type ActionBody = { note?: string; by?: string };
/** A POST without a body (`curl -X POST`, the old resolve) is an empty one: the note is optional. */
const emptyBodyIsNone = (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
  req.body ??= {};
  done();
};
const worklistQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    switch: { type: 'string', maxLength: 200 },
    rack: { type: 'string', maxLength: 100 },
    severity: { type: 'string', enum: SEVERITIES },
    state: { type: 'string', enum: ['open', 'acknowledged', 'resolved'] },
    // rack: the walking order (end A's rack, then U, then port); the rank stays the urgency.
    sort: { type: 'string', enum: ['rank', 'rack', 'impact'], default: 'rank' },
  },
} as const;

export async function findingRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const repo = createFindingsRepo(deps.db);
  const strip = toFindingRow;
  const worklist = new WorklistCache(deps.db, deps.names, impactSettings(deps.config));
  // Serialised replies per query (32 most recent filters), dropped on any commit: a sweep
  // touches findings every time anyway. /api/findings was 0.6 s p95 at 10k GPUs, 20 clients.
  const findingsCache = new ReplyCache(writeStamp(deps.db));
  // Per filter, until the worklist is rebuilt: filtering and serialising its thousands of
  // entries per request kept /api/worklist at 12 s p95 at 10k GPUs (pnpm bench, serve stage).
  const worklistReplies = new ReplyCache(() => worklist.version());
  // Each physical finding's blast radius is its worklist entry's, indexed again only when the
  // worklist was rebuilt.
  let impacts: { version: string; byId: Map<number, FindingImpact> } | undefined;
  const impactOf = (id: number): FindingImpact | undefined => {
    const version = worklist.version();
    if (impacts?.version !== version) {
      const byId = new Map<number, FindingImpact>();
      for (const e of worklist.get({})) {
        if (!e.impact) continue;
        const i = e.impact;
        const brief = { kind: i.kind, hosts: i.hosts.length, gpus: i.gpus, jobs: i.jobs.length, drain: i.drain };
        for (const f of e.findingIds) byId.set(f, brief);
      }
      impacts = { version, byId };
    }
    return impacts.byId.get(id);
  };
  const withImpact = (row: FindingRow): FindingRow => {
    const impact = row.subjectType === 'port' || row.subjectType === 'link' ? impactOf(row.id) : undefined;
    return impact ? { ...row, impact } : row;
  };

  app.get<{ Querystring: { state?: string; severity?: string; kind?: string; limit: number }; Reply: FindingRow[] }>(
    '/api/findings',
    {
      schema: {
        description:
          'Findings, worst first. state=active means open or acknowledged; current, observed by the latest scan ' +
          'of its kind (what views show as broken); cleared, active but no longer observed (resolving). kind is a ' +
          'kind or a family (link-degraded: link-degraded-width and -speed).',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            state: { type: 'string', enum: ['open', 'acknowledged', 'resolved', 'active', 'current', 'cleared'] },
            severity: { type: 'string', enum: SEVERITIES },
            kind: { type: 'string', maxLength: 100 },
            limit: { type: 'integer', minimum: 1, maximum: 10000, default: 500 },
          },
        },
        response: replySchema('GET /api/findings'),
      },
    },
    async (req, reply) => {
      const { state, severity, kind, limit } = req.query;
      return findingsCache.send(req, reply, JSON.stringify([state, severity, kind, limit]), () =>
        repo.list(req.query).map((f) => withImpact(strip(f))),
      );
    },
  );

  const detail = (id: number): FindingDetail | null => {
    const f = repo.get(id);
    return f ? { ...withImpact(strip(f)), history: repo.history(id) } : null;
  };
  const notFound = (id: number) => ({ statusCode: 404, error: 'Not Found', message: `no finding ${id}` });

  app.get<{ Params: { id: number }; Reply: FindingDetail | ReturnType<typeof notFound> }>(
    '/api/findings/:id',
    {
      schema: {
        description: 'One finding with its history (opened, acknowledged, resolved: when, by which token, why).',
        params: idParams,
        response: replySchema('GET /api/findings/:id'),
      },
    },
    async (req, reply) => detail(req.params.id) ?? reply.code(404).send(notFound(req.params.id)),
  );

  /** Acknowledge and resolve: the change, its history entry, and the finding as it is now. */
  const action = (what: 'acknowledged' | 'resolved') => async (req: FastifyRequest, reply: FastifyReply) => {
    const { id } = req.params as { id: number };
    const body = req.body as ActionBody;
    if (body.by !== undefined)
      return reply.code(400).send({
        statusCode: 400,
        error: 'Bad Request',
        message:
          `"by" is no longer accepted: the finding is ${what} under the name of the token sent ` +
          `(${req.tokenName}); give the reason as "note"`,
      });
    if (!repo.get(id)) return reply.code(404).send(notFound(id));
    const by = req.tokenName!;
    const note = body.note?.trim() || null;
    const changed =
      what === 'acknowledged' ? repo.acknowledge(id, by, Date.now(), note) : repo.resolve(id, Date.now(), by, note);
    if (changed) req.log.info({ finding: id, by, note }, `finding ${what}`);
    // An event marked fixed is cleared at once (resolveClears), and no scan will touch it again:
    // its link's colour is recomputed now.
    const key = repo.get(id)!.subjectKey;
    if (changed && what === 'resolved' && /^(port|link):/.test(key)) refreshLinkHealth(deps.db, endsOfSubjectKey(key));
    return detail(id);
  };

  app.post(
    '/api/findings/:id/ack',
    {
      config: WRITE_LIMIT,
      preValidation: emptyBodyIsNone,
      schema: {
        description:
          'Acknowledge an open finding (someone is on it), recorded in its history under the name of the token ' +
          'sent, with `note` as the reason.',
        security: [{ bearer: [] }],
        params: idParams,
        body: actionBody,
        response: replySchema('POST /api/findings/:id/ack'),
      },
    },
    action('acknowledged'),
  );

  app.post(
    '/api/findings/:id/resolve',
    {
      config: WRITE_LIMIT,
      preValidation: emptyBodyIsNone,
      schema: {
        description:
          'Mark a finding fixed, recorded in its history under the name of the token sent, with `note` as the ' +
          'reason. ' +
          'Views go on showing what the scans observe: if the problem persists, the next scan of its kind ' +
          'opens it again.',
        security: [{ bearer: [] }],
        params: idParams,
        body: actionBody,
        response: replySchema('POST /api/findings/:id/resolve'),
      },
    },
    action('resolved'),
  );

  app.get<{ Querystring: WorklistFilter; Reply: WorklistEntry[] }>(
    '/api/worklist',
    {
      schema: {
        description: 'Ranked physical links to act on (one entry per cable, both ends).',
        querystring: worklistQuery,
        response: replySchema('GET /api/worklist'),
      },
    },
    async (req, reply) => {
      const { switch: sw, rack, severity, state, sort } = req.query;
      return worklistReplies.send(req, reply, JSON.stringify([sw, rack, severity, state, sort]), () =>
        worklist.get(req.query),
      );
    },
  );

  app.get<{ Querystring: WorklistFilter }>(
    '/api/worklist.csv',
    {
      schema: {
        description: 'The worklist as CSV (UTF-8 with a BOM for Excel, formula-safe); same filters and sort.',
        querystring: worklistQuery,
        response: replySchema('GET /api/worklist.csv'),
      },
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ibwatch-worklist-${new Date().toISOString().slice(0, 10)}.csv"`,
        )
        .send(worklistCsv(worklist.get(req.query))),
  );
}
