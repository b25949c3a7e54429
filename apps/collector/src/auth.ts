import type { FastifyReply, FastifyRequest } from 'fastify';
import { TokenBook, type NamedToken } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The name of the token the request carried (IBWATCH_TOKENS), null without a valid one. */
    tokenName: string | null;
  }
}

/** Whether `header` carries exactly the token `expected` (constant time; see {@link TokenBook}). */
export function tokenMatches(expected: string | null, header: string | undefined): boolean {
  return new TokenBook(expected ? [{ name: 'token', token: expected }] : []).nameOf(header) !== null;
}

const OPEN_PATHS = new Set(['/api/health', '/api/ready', '/api/whoami']);

/**
 * onRequest hook: writes always need a token; reads only when configured so. A request with a
 * valid token carries its name in `req.tokenName` (who acknowledged or resolved a finding).
 */
export function authHook(tokens: readonly NamedToken[], readsNeedToken: boolean) {
  const book = new TokenBook(tokens);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const isApi = path.startsWith('/api/') || path === '/metrics';
    if (!isApi) return;
    req.tokenName = book.nameOf(req.headers.authorization);
    if (OPEN_PATHS.has(path) || path.startsWith('/api/docs')) return;
    const isWrite = req.method !== 'GET' && req.method !== 'HEAD';
    if (!isWrite && !readsNeedToken) return;
    if (req.tokenName === null) {
      const why = book.size
        ? 'missing or wrong bearer token'
        : 'writes are disabled: set IBWATCH_TOKENS or IBWATCH_TOKEN';
      await reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ statusCode: 401, error: 'Unauthorized', message: why });
    }
  };
}
