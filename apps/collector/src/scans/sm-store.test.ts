import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmObservation } from '@ibwatch/fabric';
import { NameBook } from '../names.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { smSummary } from '../routes/sm.ts';
import { runPipeline } from './scan-service.ts';
import { storeSm } from './sm-store.ts';
import { storeTopology } from './topology-store.ts';
import { testContext } from '../test-support.ts';

// An HCA whose port GUID differs from its node GUID, as on ConnectX (node ...a0, port 1 ...a1),
// and a switch (port GUID = node GUID). sminfo and the SA report SMs by PORT GUID.
const HCA = '0x0002c90300aaaaa0';
const HCA_PORT = '0x0002c90300aaaaa1';
const SW = '0x0002c90300bbbbb0';
const ctx = testContext();
const names = NameBook.fromMap([
  [HCA, { name: 'sm-host-01', rack: 'R1' }],
  [SW, { name: 'leaf-01', rack: 'R1' }],
]);

const smScan = (sms: SmObservation[]) =>
  runPipeline(
    ctx.db,
    'sm',
    'cli',
    async () => ({ data: sms, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeSm(ctx.db, ctx.config, names, id, at, c.data),
  );

beforeAll(async () => {
  await runPipeline(
    ctx.db,
    'topology',
    'cli',
    async () => ({
      data: {
        nodes: [
          { guid: HCA, type: 'ca' as const, description: 'sm-host-01 mlx5_0', numPorts: 1 },
          { guid: SW, type: 'switch' as const, description: 'MF0;leaf-01', numPorts: 36 },
        ],
        ports: [
          { nodeGuid: HCA, portNum: 1, portGuid: HCA_PORT, lid: 5, state: 'Active' as const },
          { nodeGuid: SW, portNum: 0, portGuid: SW, lid: 1, state: 'Active' as const },
          { nodeGuid: SW, portNum: 1, state: 'Active' as const },
        ],
        links: [{ a: { nodeGuid: HCA, portNum: 1 }, b: { nodeGuid: SW, portNum: 1 } }],
      },
      raw: [],
      toolVersions: {},
      warnings: [],
    }),
    (id, at, c) => storeTopology(ctx.db, ctx.config, names, id, at, c.data),
  );
});
afterAll(() => ctx.cleanup());

describe('storeSm()', () => {
  it('names an SM reported by port GUID through the ports table (port GUID -> node GUID -> name)', async () => {
    const row = await smScan([
      { guid: HCA_PORT, lid: 5, priority: 15, state: 'MASTER' },
      { guid: SW, lid: 1, priority: 1, state: 'STANDBY' },
    ]);
    expect(row.status).toBe('ok');
    const sms = createSmRepo(ctx.db).latest()!.sms;
    expect(sms.map((s) => [s.guid, s.name])).toEqual([
      [HCA_PORT, 'sm-host-01'],
      [SW, 'leaf-01'],
    ]);
    expect(smSummary({ ...ctx, names }, Date.now())).toMatchObject({
      status: 'ok',
      masterGuid: HCA_PORT,
      masterName: 'sm-host-01',
      standbyCount: 1,
    });
  });

  it('records a failover event naming both SMs when the standby takes over', async () => {
    await smScan([{ guid: SW, lid: 1, priority: 1, state: 'MASTER' }]);
    const events = createSmRepo(ctx.db).events(10);
    expect(events.find((e) => e.kind === 'failover')).toMatchObject({
      fromGuid: HCA_PORT,
      toGuid: SW,
      detail: 'master moved from sm-host-01 to leaf-01',
    });
    expect(events.some((e) => e.kind === 'standby-lost' && e.detail.startsWith('sm-host-01'))).toBe(true);
  });
});
