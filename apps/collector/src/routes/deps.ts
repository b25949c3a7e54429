import type { SmLogFollow } from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import type { NameBook } from '../names.ts';
import type { ScanService } from '../scans/types.ts';

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
}
