import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Bearer-token check in constant time: both sides are hashed first so the comparison length
 * never depends on the guess, and `timingSafeEqual` does the rest.
 */
export function tokenMatches(expected: string | null, header: string | undefined): boolean {
  if (!expected || !header) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(m[1]!).digest();
  return timingSafeEqual(a, b);
}

const OPEN_PATHS = new Set(['/api/health', '/api/ready']);

/** onRequest hook: writes always need the token; reads only when configured so. */
export function authHook(token: string | null, readsNeedToken: boolean) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const isApi = path.startsWith('/api/') || path === '/metrics';
    if (!isApi || OPEN_PATHS.has(path) || path.startsWith('/api/docs')) return;
    const isWrite = req.method !== 'GET' && req.method !== 'HEAD';
    if (!isWrite && !readsNeedToken) return;
    if (!tokenMatches(token, req.headers.authorization)) {
      const why = token ? 'missing or wrong bearer token' : 'writes are disabled: set IBWATCH_TOKEN';
      await reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ statusCode: 401, error: 'Unauthorized', message: why });
    }
  };
}
