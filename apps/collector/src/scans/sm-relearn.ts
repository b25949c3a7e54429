import type { SmRelearnReply } from '@ibwatch/fabric';
import type { Config } from '../config.ts';
import type { Db } from '../db/open-db.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import type { NameBook } from '../names.ts';
import { designationOf, smPlacer } from '../queries/sm-view.ts';
import type { ScanService, Trigger } from './types.ts';

/** Thrown when the designated SMs come from IBWATCH_SM_GUIDS and cannot be re-learned. */
export class RelearnRefused extends Error {}

/**
 * Re-learn the designated SM ports: the SMs answering the next SM observation become the list,
 * and known SMs not answering then are forgotten (a decommissioned SM host stops being missed).
 * Runs that SM scan now where this source runs them; otherwise the next import learns.
 */
export async function relearnSms(
  db: Db,
  config: Config,
  names: NameBook,
  scans: ScanService,
  trigger: Trigger,
): Promise<SmRelearnReply> {
  if (config.smGuids)
    throw new RelearnRefused(
      'the designated SMs come from IBWATCH_SM_GUIDS: change that variable (and restart) to change them',
    );
  const repo = createSmRepo(db);
  repo.requestRelearn();
  const scan = config.source === 'import-only' ? null : await scans.run('sm', trigger);
  return { designation: designationOf(config, repo, smPlacer(repo, names)), scan };
}
