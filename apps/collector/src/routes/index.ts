import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { healthRoutes } from './health.ts';
import { scanRoutes } from './scans.ts';

/** Every resource is one plugin; they share the deps the app was built with. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(healthRoutes, deps);
  await app.register(scanRoutes, deps);
}
