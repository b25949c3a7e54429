/**
 * JSON shapes of the collector's HTTP API (`/api/...`), derived from the reply schemas of
 * ./api/ (TypeBox, exported as values by ./api-schemas.ts): the collector declares those schemas
 * on its routes and the web app uses these types, so a change here is a change of the contract.
 * Times are epoch milliseconds (UTC); the web app formats them in the browser's time zone.
 */

export type * from './api/common.ts';
export type * from './api/summary.ts';
export type * from './api/topology.ts';
export type * from './api/topology-frame.ts';
export type * from './api/ports.ts';
export type * from './api/findings.ts';
export type * from './api/sm.ts';
export type * from './api/nccl.ts';
export type * from './api/fleet.ts';
export type * from './api/firmware.ts';
export type * from './api/notifications.ts';
export type * from './api/routes.ts';
export type * from './api/paths.ts';
export type * from './api/traffic.ts';
export type * from './api/watch.ts';
export type * from './api/baseline.ts';
