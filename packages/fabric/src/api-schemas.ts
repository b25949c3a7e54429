/**
 * The API contract as values: every reply's JSON Schema (TypeBox), for the collector's route
 * declarations and tests. The web app imports only the types (../api.ts), not these.
 */
export * from './api/kit.ts';
export * from './api/vocab.ts';
export * from './api/common.ts';
export * from './api/summary.ts';
export * from './api/topology.ts';
export * from './api/topology-frame.ts';
export * from './api/ports.ts';
export * from './api/findings.ts';
export * from './api/sm.ts';
export * from './api/nccl.ts';
export * from './api/fleet.ts';
export * from './api/firmware.ts';
export * from './api/routes.ts';
