import { afterAll, describe, expect, it } from 'vitest';
import type { SmObservation } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { testContext } from '../test-support.ts';
import { runPipeline } from './scan-service.ts';
import { storeSm } from './sm-store.ts';

// Port GUIDs of two SM hosts, as saquery SMIR / sminfo report them.
const A = '0x0002c90300aaaaa1';
const B = '0x0002c90300bbbbb1';
// A finding the latest SM scan no longer observes is cleared at once, whatever the clean period.
const ctx = testContext({ IBWATCH_AUTO_RESOLVE_MIN: '60' });
afterAll(() => ctx.cleanup());

const smScan = (sms: SmObservation[]) =>
  runPipeline(
    ctx.db,
    'sm',
    'cli',
    async () => ({ data: sms, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeSm(ctx.db, ctx.config, ctx.names, id, at, c.data),
  );
/** Subjects of the findings of `kind` the latest SM scan observed (open and not cleared). */
const active = (kind: string) =>
  createFindingsRepo(ctx.db)
    .active()
    .filter((f) => f.kind === kind && f.clearedAt === null)
    .map((f) => f.subjectKey);

describe('storeSm() across a takeover seen with no master in between', () => {
  it('keeps the dead master reported lost while no SM is MASTER, then records the failover from it', async () => {
    await smScan([
      { guid: A, lid: 1, priority: 15, state: 'MASTER' },
      { guid: B, lid: 7, priority: 1, state: 'STANDBY' },
    ]);
    // The standby waits out sminfo_polling_timeout x polling_retry_number before it takes over.
    await smScan([{ guid: B, lid: 7, priority: 1, state: 'STANDBY' }]);
    await smScan([{ guid: B, lid: 7, priority: 1, state: 'STANDBY' }]);
    expect(active('sm-no-master')).toEqual(['sm:subnet']);
    expect(active('sm-standby-lost')).toEqual([`sm:${A}`]);

    await smScan([{ guid: B, lid: 7, priority: 1, state: 'MASTER' }]);
    const failovers = createSmRepo(ctx.db)
      .events(50)
      .filter((e) => e.kind === 'failover');
    expect(failovers.map((e) => [e.fromGuid, e.toGuid])).toEqual([[A, B]]);
    expect(active('sm-failover')).toEqual([`sm:${B}`]);
    expect(active('sm-no-master')).toEqual([]);
  });
});
