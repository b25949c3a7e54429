import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from './config.ts';

/** Headers of any reply that are not helmet's. */
const NOT_HELMETS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** The helmet options of the dashboard: same-origin everything, no framing. */
function helmetOptions(config: Config) {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Recharts positions tooltips and labels with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...config.peers.map((p) => p.url)],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' as const },
  };
}

/**
 * The security headers helmet sets (CSP, nosniff, frame deny, HSTS...), computed once by
 * asking helmet itself on a throwaway instance. Registered on the app, `@fastify/helmet` builds
 * helmet's middlewares again for every request: under the bench's 20 clients that was ~100 of
 * the server's 220 MB of long-lived allocation in 25 s of `/api/findings`. The headers do not
 * depend on the request (no CSP nonces), so the same ones go on every reply.
 */
export async function securityHeaders(config: Config): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(config));
  probe.get('/', async () => 'ok');
  const res = await probe.inject({ url: '/' });
  await probe.close();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (!NOT_HELMETS.has(name) && typeof value === 'string') out[name] = value;
  }
  return out;
}
