import type { SmLogFollow } from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import type { ScanService } from '../scans/types.ts';
import type { TopologyJson } from '../db/topology-json.ts';
import type { TopologyFrames } from '../analysis/topology-frame.ts';

/**
 * What every route plugin is registered with. Routes read through db/ repositories and
 * queries/, and start scans only through the ScanService: never sources/ or scans/ internals.
 */
export interface RouteDeps {
  config: Config;
  db: Db;
  scans: ScanService;
  names: NameBook;
  logger?: boolean | object;
  /** The IBWATCH_OPENSM_LOG follower's position and last problem (server.ts); absent in tests. */
  opensmFollow?: () => SmLogFollow | null;
  /** GET /api/topology's builder, when the caller builds it ahead (server.ts); else the route makes its own. */
  topology?: TopologyJson;
  /** GET /api/topology/frame's builder over `topology`, when the caller lays it out ahead (server.ts). */
  topologyFrames?: TopologyFrames;
}
