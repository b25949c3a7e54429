import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { healthRoutes } from './health.ts';
import { scanRoutes } from './scans.ts';
import { fabricRoutes } from './fabric.ts';
import { portRoutes } from './ports.ts';
import { findingRoutes } from './findings.ts';
import { smRoutes } from './sm.ts';
import { ncclRoutes } from './nccl.ts';
import { reportRoutes } from './reports.ts';
import { metricsRoutes } from './metrics.ts';
import { peerRoutes } from './peers.ts';
import { firmwareRoutes } from './firmware.ts';
import { fleetRoutes } from './fleet.ts';
import { notificationRoutes } from './notifications.ts';
import { trafficRoutes } from './traffic.ts';
import { watchRoutes } from './watch.ts';
import { baselineRoutes } from './baseline.ts';

/** Every resource is one plugin; they share the deps the app was built with. */
export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  for (const plugin of [
    healthRoutes,
    scanRoutes,
    fabricRoutes,
    portRoutes,
    findingRoutes,
    smRoutes,
    ncclRoutes,
    reportRoutes,
    metricsRoutes,
    peerRoutes,
    firmwareRoutes,
    fleetRoutes,
    notificationRoutes,
    trafficRoutes,
    watchRoutes,
    baselineRoutes,
  ]) {
    await app.register(plugin, deps);
  }
}
