/**
 * Every route of the collector and the schema of its 2xx reply: what the collector declares
 * (`response`), what `/api/docs` publishes, and what the web client's `api.get(path)` infers its
 * reply type from. Keys are `METHOD /path` with Fastify's `:param` segments.
 */
import { type Static, Type } from './kit.ts';
import { HealthReplySchema, ReadyReplySchema, ScanRowSchema } from './common.ts';
import { FindingDetailSchema, FindingRowSchema, WhoamiReplySchema, WorklistEntrySchema } from './findings.ts';
import { FirmwareReplySchema } from './firmware.ts';
import { FleetReplySchema, PeersReplySchema } from './fleet.ts';
import { BandwidthReportSchema, NcclImportReplySchema, NcclRunDetailReplySchema, NcclRunRowSchema } from './nccl.ts';
import { NotificationsReplySchema } from './notifications.ts';
import { WatchReplySchema } from './watch.ts';
import { BaselineValidationReplySchema } from './baseline.ts';
import { PortTrafficReplySchema, TrafficHotReplySchema } from './traffic.ts';
import { CounterHistoryReplySchema, PortDetailReplySchema, PortsReplySchema } from './ports.ts';
import { SmLogReplySchema, SmRelearnReplySchema, SmReplySchema } from './sm.ts';
import { FabricSummarySchema } from './summary.ts';
import { TopologyReplySchema } from './topology.ts';
import { TopologyFrameReplySchema } from './topology-frame.ts';

/** JSON replies. */
export const API_REPLIES = {
  'GET /api/health': HealthReplySchema,
  'GET /api/ready': ReadyReplySchema,
  'GET /api/whoami': WhoamiReplySchema,
  'GET /api/scans': Type.Array(ScanRowSchema),
  'GET /api/scans/:id': ScanRowSchema,
  'POST /api/scans': ScanRowSchema,
  'GET /api/summary': FabricSummarySchema,
  'GET /api/topology': TopologyReplySchema,
  'GET /api/topology/frame': TopologyFrameReplySchema,
  'GET /api/ports': PortsReplySchema,
  'GET /api/ports/:guid/:port': PortDetailReplySchema,
  'GET /api/ports/:guid/:port/counters': CounterHistoryReplySchema,
  'GET /api/findings': Type.Array(FindingRowSchema),
  'GET /api/findings/:id': FindingDetailSchema,
  'POST /api/findings/:id/ack': FindingDetailSchema,
  'POST /api/findings/:id/resolve': FindingDetailSchema,
  'GET /api/worklist': Type.Array(WorklistEntrySchema),
  'GET /api/sms': SmReplySchema,
  'POST /api/sms/relearn': SmRelearnReplySchema,
  'GET /api/sms/log': SmLogReplySchema,
  'GET /api/nccl/runs': Type.Array(NcclRunRowSchema),
  'GET /api/nccl/runs/:id': NcclRunDetailReplySchema,
  'POST /api/nccl-runs': NcclImportReplySchema,
  'GET /api/reports/bandwidth': BandwidthReportSchema,
  'GET /api/peers': PeersReplySchema,
  'GET /api/firmware': FirmwareReplySchema,
  'GET /api/fleet': FleetReplySchema,
  'GET /api/notifications': NotificationsReplySchema,
  'GET /api/traffic/hot': TrafficHotReplySchema,
  'GET /api/ports/:guid/:port/traffic': PortTrafficReplySchema,
  'GET /api/watch': WatchReplySchema,
  'GET /api/baseline/validation': BaselineValidationReplySchema,
} as const;

export type ApiRoute = keyof typeof API_REPLIES;
/** The reply type of each JSON route, e.g. `ApiReplies['GET /api/worklist']` is `WorklistEntry[]`. */
export type ApiReplies = { [K in ApiRoute]: Static<(typeof API_REPLIES)[K]> };

/** Replies that are not JSON: their content type (the body is text). */
export const TEXT_REPLIES = {
  'GET /api/worklist.csv': 'text/csv',
  'GET /api/reports/bandwidth.csv': 'text/csv',
  'GET /api/baseline/validation.csv': 'text/csv',
  'GET /metrics': 'text/plain',
} as const;

/** The `response` of a route: its 2xx schema (for a text reply, per content type). */
export function replySchema(route: ApiRoute | keyof typeof TEXT_REPLIES): Record<string, unknown> {
  if (route in TEXT_REPLIES) {
    const type = TEXT_REPLIES[route as keyof typeof TEXT_REPLIES];
    return { '2xx': { content: { [type]: { schema: { type: 'string' } } } } };
  }
  return { '2xx': API_REPLIES[route as ApiRoute] };
}
