import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { authHook } from './auth.ts';
import { checkReplies } from './reply-check.ts';
import { securityHeaders } from './security-headers.ts';
import { registerRoutes } from './routes/index.ts';
import { schemaErrorMessage } from './validation-message.ts';
import { isBusyError, RETRY_AFTER_S } from './queries/scan-failure.ts';
import type { RouteDeps } from './routes/deps.ts';
import { VERSION } from './version.ts';
import { closeDeferringCheckpoint } from './db/wal-checkpoint.ts';

/** What the app is built with: what its routes are registered with. */
export type AppDeps = RouteDeps & {
  /** Called for every route as it is registered (the contract test walks them). */
  onRoute?: (route: RouteOptions) => void;
};

/** Builds the Fastify app without listening: what server.ts runs and what tests `inject()` into. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    // One line per request drowns the scan log at a NOC's refresh rates; debug brings it back.
    // Through a LogController: Fastify 5 deprecates the top-level option (FSTDEP023 printed at start).
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    // Request ids let an operator match a UI error to a log line without exposing internals.
    genReqId: () => Math.random().toString(36).slice(2, 10),
    // Unknown body fields and query parameters are refused (400 naming them), not silently
    // dropped: a typo in a filter must not quietly return unfiltered data.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    schemaErrorFormatter: schemaErrorMessage,
  });

  const headers = await securityHeaders(config);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'ibwatch collector API',
        version: VERSION,
        description: 'InfiniBand fabric health: topology, counters, SMs, nccl-tests.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Before the routes: the check learns each route's schema as it is registered.
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  if (config.checkReplies) checkReplies(app, (message) => process.stderr.write(`${message}\n`));

  app.decorateRequest('tokenName', null);
  app.addHook('onRequest', authHook(config.tokens, config.readsNeedToken));

  // One error handler: validation errors say what was wrong; 5xx never leak a stack or SQL.
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown }, req, reply) => {
    // Another process held the database past the busy timeout: nothing is wrong with the request.
    if (isBusyError(err)) {
      req.log.warn({ err }, 'database busy');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_S))
        .send({ statusCode: 503, error: 'Service Unavailable', message: 'database busy; try again' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply
        .code(status)
        .send({ statusCode: status, error: 'Internal Server Error', message: `internal error (request ${req.id})` });
    }
    return reply.code(status).send({ statusCode: status, error: err.name, message: err.message });
  });

  await app.register(registerRoutes, deps);

  if (existsSync(config.webDist)) {
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: false });
    // Client-side routes (/topology, /ports/...) all load the SPA shell.
    app.setNotFoundHandler((req, reply) => {
      if (req.method === 'GET' && !req.url.startsWith('/api/') && req.url !== '/metrics')
        return reply.sendFile('index.html');
      return reply
        .code(404)
        .send({ statusCode: 404, error: 'Not Found', message: `no route ${req.method} ${req.url.split('?')[0]}` });
    });
  } else {
    app.setNotFoundHandler((req, reply) =>
      reply.code(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: `no route ${req.method} ${req.url.split('?')[0]} (web UI not built: pnpm build)`,
      }),
    );
  }
  app.addHook('onClose', () => closeDeferringCheckpoint(deps.db));
  return app;
}
