import { afterAll, describe, expect, it } from 'vitest';
import type { SmObservation } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { NameBook } from '../names.ts';
import { smReply } from '../queries/sm-view.ts';
import { runPipeline } from './pipeline.ts';
import { storeSm } from './sm-store.ts';
import { storeTopology } from './topology-store.ts';
import { testContext } from '../test-support.ts';

// HCAs whose port GUID differs from the node GUID, as on ConnectX (node ...a0, port 1 ...a1),
// and a switch (port GUID = node GUID). sminfo and the SA report SMs by PORT GUID.
const HEAD1 = '0x0002c90300aaaaa0';
const HEAD1_PORT = '0x0002c90300aaaaa1';
const HEAD2 = '0x0002c90300ccccc0';
const HEAD2_PORT = '0x0002c90300ccccc1';
const DGX = '0x0002c90300ddddd0';
const DGX_PORT = '0x0002c90300ddddd1';
const SW = '0x0002c90300bbbbb0';
const names = NameBook.fromMap([
  [HEAD1, { name: 'head-01 mlx5_0', rack: 'M01' }],
  [HEAD2, { name: 'head-02 mlx5_0', rack: 'M01' }],
  [SW, { name: 'leaf-01', rack: 'R1' }],
]);

const master1 = { guid: HEAD1_PORT, lid: 5, priority: 15, state: 'MASTER' } as const;
const standby2 = { guid: HEAD2_PORT, lid: 6, priority: 1, state: 'STANDBY' } as const;

/** A context with the topology of the SM hosts stored; each test file part gets its own database. */
async function fabric(env: Record<string, string> = {}) {
  // A finding the latest SM scan does not observe resolves at once: only re-asserted ones stay open.
  const ctx = testContext({ IBWATCH_AUTO_RESOLVE_MIN: '0', ...env });
  const hca = (guid: string, description: string) => ({ guid, type: 'ca' as const, description, numPorts: 1 });
  await runPipeline(
    ctx.db,
    'topology',
    'cli',
    async () => ({
      data: {
        nodes: [
          hca(HEAD1, 'head-01 mlx5_0'),
          hca(HEAD2, 'head-02 mlx5_0'),
          hca(DGX, 'dgx-0003 mlx5_0'),
          { guid: SW, type: 'switch' as const, description: 'MF0;leaf-01', numPorts: 36 },
        ],
        ports: [
          { nodeGuid: HEAD1, portNum: 1, portGuid: HEAD1_PORT, lid: 5, state: 'Active' as const },
          { nodeGuid: HEAD2, portNum: 1, portGuid: HEAD2_PORT, lid: 6, state: 'Active' as const },
          { nodeGuid: DGX, portNum: 1, portGuid: DGX_PORT, lid: 7, state: 'Active' as const },
          { nodeGuid: SW, portNum: 0, portGuid: SW, lid: 1, state: 'Active' as const },
          ...[1, 2, 3].map((p) => ({ nodeGuid: SW, portNum: p, state: 'Active' as const })),
        ],
        links: [HEAD1, HEAD2, DGX].map((g, i) => ({
          a: { nodeGuid: g, portNum: 1 },
          b: { nodeGuid: SW, portNum: i + 1 },
        })),
      },
      raw: [],
      toolVersions: {},
      warnings: [],
    }),
    (id, at, c) => storeTopology(ctx.db, ctx.config, names, id, at, c.data),
  );
  /**
   * One SM scan through the real pipeline, at the time given, else now but at least a second
   * after the scan before: SM scans are seconds apart on a fabric, and two in one millisecond
   * would put a takeover's rows outside the window of the failover they belong to.
   */
  let last = 0;
  const scan = (sms: SmObservation[], at?: number) => {
    const t = (last = at ?? Math.max(Date.now(), last + 1000));
    return runPipeline(
      ctx.db,
      'sm',
      'cli',
      async () => ({ data: sms, raw: [], toolVersions: {}, warnings: [] }),
      (id, t2, c) => storeSm(ctx.db, ctx.config, names, id, t2, c.data),
      () => t,
    );
  };
  const reply = () => smReply({ ...ctx, names }, Date.now(), 100);
  const active = (kind: string) =>
    createFindingsRepo(ctx.db)
      .active()
      .filter((f) => f.kind === kind);
  return { ctx, scan, reply, active };
}

const contexts: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const c of contexts) c.cleanup();
});
async function setUp(env: Record<string, string> = {}) {
  const f = await fabric(env);
  contexts.push(f.ctx);
  return f;
}

describe('storeSm()', () => {
  it('names an SM reported by port GUID through the ports table, with its node, port, host and rack', async () => {
    const { scan, reply } = await setUp();
    const row = await scan([master1, { guid: SW, lid: 1, priority: 1, state: 'STANDBY' }]);
    expect(row.summary.status).toBe('ok');
    const r = reply();
    expect(r.sms.map((s) => [s.guid, s.name, s.portNum, s.host, s.rack, s.answering, s.designated])).toEqual([
      [HEAD1_PORT, 'head-01 mlx5_0', 1, 'head-01', 'M01', true, true],
      [SW, 'leaf-01', 0, null, 'R1', true, true],
    ]);
    expect(r.summary).toMatchObject({ status: 'ok', masterGuid: HEAD1_PORT, masterName: 'head-01 mlx5_0' });
    expect(r.designation).toMatchObject({ source: 'learned', guids: [SW, HEAD1_PORT].sort(), neverSeen: [] });
  });

  it('keeps a dead standby listed and alarmed on every later scan, and clears it when it answers again', async () => {
    const { scan, reply, active } = await setUp();
    await scan([master1, standby2]);
    const lastSeen = reply().sms.find((s) => s.guid === HEAD2_PORT)!.lastSeen;
    // Auto-resolve after ONE clean sweep: a condition not re-asserted by every scan would go.
    for (let i = 0; i < 5; i++) await scan([master1]);
    const r = reply();
    expect(r.summary).toMatchObject({ status: 'no-standby', standbyCount: 0, missingCount: 1 });
    expect(r.sms.find((s) => s.guid === HEAD2_PORT)).toMatchObject({
      answering: false,
      state: 'STANDBY',
      priority: 1,
      lastSeen,
    });
    expect(active('sm-not-seen').map((f) => [f.subjectKey, f.title])).toEqual([
      [
        `sm:${HEAD2_PORT}`,
        `Subnet manager head-02 mlx5_0 port 1 (${HEAD2_PORT}) stopped answering (last seen STANDBY, priority 1)`,
      ],
    ]);
    expect(active('sm-no-standby')).toHaveLength(1);
    expect(r.events.map((e) => e.kind)).toEqual(['not-seen', 'learned']);

    await scan([master1, standby2]);
    await scan([master1, standby2]);
    expect(reply().summary).toMatchObject({ status: 'ok', standbyCount: 1, missingCount: 0 });
    expect(active('sm-not-seen')).toEqual([]);
    expect(active('sm-no-standby')).toEqual([]);
    expect(reply().events[0]).toMatchObject({
      kind: 'seen-again',
      detail: 'head-02 answers again as STANDBY (priority 1)',
    });
  });

  it('records a failover as one timeline row with names and the time window', async () => {
    const { scan, reply } = await setUp();
    await scan([master1, standby2]);
    await scan([{ ...standby2, state: 'MASTER' }]);
    const events = reply().events;
    expect(events.map((e) => e.kind)).toEqual(['failover', 'learned']);
    expect(events[0]).toMatchObject({
      fromGuid: HEAD1_PORT,
      toGuid: HEAD2_PORT,
      fromName: 'head-01 mlx5_0',
      toName: 'head-02 mlx5_0',
      after: expect.any(Number),
      detail: 'master moved from head-01 to head-02; head-01 stopped answering',
    });
    expect(events[0]!.after).toBeLessThan(events[0]!.at);
    expect(reply().summary).toMatchObject({ status: 'no-standby', failoversLast24h: 1, missingCount: 1 });
  });

  it('judges an SM at a port that is not designated as rogue, naming the host and port, master or not', async () => {
    const { scan, reply, active } = await setUp();
    await scan([master1, standby2]);
    const rogue = { guid: DGX_PORT, lid: 7, priority: 15 } as const;
    await scan([master1, standby2, { ...rogue, state: 'STANDBY' }]);
    expect(reply().summary).toMatchObject({ status: 'rogue', rogueCount: 1 });
    const [f] = active('sm-rogue');
    expect(f).toMatchObject({ severity: 'critical', subjectKey: `sm:${DGX_PORT}` });
    expect(f!.title).toContain('dgx-0003 mlx5_0 port 1');

    // It takes the subnet (priority 15, lower GUID): still rogue, and the takeover is a failover.
    await scan([{ ...rogue, state: 'MASTER' }, { ...master1, state: 'STANDBY' }, standby2]);
    expect(active('sm-rogue')[0]!.title).toMatch(/dgx-0003 mlx5_0 port 1 .* is MASTER, priority 15, and is the master/);
    expect(reply().sms.find((s) => s.guid === DGX_PORT)).toMatchObject({ designated: false, host: 'dgx-0003' });
    expect(active('sm-priority')).toEqual([]);

    // Stopped: nobody is master for a few seconds, then head-01 takes over again.
    await scan([{ ...master1, state: 'STANDBY' }, standby2]);
    await scan([master1, standby2]);
    await scan([master1, standby2]);
    expect(reply().summary).toMatchObject({ status: 'ok', rogueCount: 0, missingCount: 0 });
    expect(active('sm-rogue')).toEqual([]);
    expect(reply().events.map((e) => [e.kind, e.detail])).toEqual([
      ['failover', 'master moved from dgx-0003 to head-01; dgx-0003 stopped answering'],
      ['failover', 'master moved from head-01 to dgx-0003; head-01 is now STANDBY; dgx-0003 is not a designated SM'],
      ['rogue', 'dgx-0003 appeared as STANDBY (priority 15): not a designated SM'],
      ['learned', 'designated SMs learned: head-01, head-02'],
    ]);
    // The rogue stays listed as not seen, and is not missed.
    expect(reply().sms.find((s) => s.guid === DGX_PORT)).toMatchObject({ answering: false, designated: false });
  });

  it(
    'takes the designated SMs from IBWATCH_SM_GUIDS (node or port GUIDs) and reports one that never ' + 'answered',
    async () => {
      const { scan, reply, active } = await setUp({ IBWATCH_SM_GUIDS: `${HEAD1},${HEAD2_PORT},${SW}` });
      await scan([master1, standby2]);
      const r = reply();
      expect(r.designation).toMatchObject({ source: 'config', guids: [HEAD1, HEAD2_PORT, SW], neverSeen: [SW] });
      expect(r.sms.every((s) => s.designated)).toBe(true);
      expect(active('sm-not-seen').map((f) => f.title)).toEqual([
        `Designated subnet manager leaf-01 port 0 (${SW}) has never answered`,
      ]);
      expect(r.summary.status).toBe('sm-missing');
    },
  );

  it('re-learns the designated SMs from the next scan and forgets the SMs not answering then', async () => {
    const { ctx, scan, reply, active } = await setUp();
    await scan([master1, standby2]);
    await scan([master1, { guid: SW, lid: 1, priority: 1, state: 'STANDBY' }]);
    expect(active('sm-rogue')).toHaveLength(1);
    expect(active('sm-not-seen')).toHaveLength(1);
    const { createSmRepo } = await import('../db/sm-repo.ts');
    createSmRepo(ctx.db).requestRelearn();
    expect(reply().designation.relearnPending).toBe(true);
    await scan([master1, { guid: SW, lid: 1, priority: 1, state: 'STANDBY' }]);
    const r = reply();
    expect(r.designation).toMatchObject({ source: 'learned', guids: [SW, HEAD1_PORT].sort(), relearnPending: false });
    expect(r.sms.map((s) => s.guid)).toEqual([HEAD1_PORT, SW]);
    expect(r.summary.status).toBe('ok');
    expect(active('sm-rogue')).toEqual([]);
    expect(active('sm-not-seen')).toEqual([]);
    expect(r.events[0]).toMatchObject({
      kind: 'learned',
      detail: 'designated SMs re-learned: head-01, leaf-01; 1 SM(s) not answering forgotten',
    });
  });

  it('shows an observation that saw no SM as no master, not the SMs of the one before', async () => {
    const { scan, reply } = await setUp();
    await scan([master1, standby2]);
    await scan([]);
    const r = reply();
    expect(r.summary).toMatchObject({ status: 'no-master', masterCount: 0, missingCount: 2 });
    expect(r.sms.every((s) => !s.answering)).toBe(true);
  });

  it('keeps a dead master reported while no SM is MASTER, then records one failover row from it', async () => {
    const { scan, reply, active } = await setUp();
    const keys = (kind: string) => active(kind).map((f) => f.subjectKey);
    await scan([master1, standby2]);
    // The standby waits out sminfo_polling_timeout x polling_retry_number before it takes over.
    await scan([standby2]);
    await scan([standby2]);
    expect(keys('sm-no-master')).toEqual(['sm:subnet']);
    expect(keys('sm-not-seen')).toEqual([`sm:${HEAD1_PORT}`]);
    const during = reply().events;
    expect(during.map((e) => e.kind)).toEqual(['no-master', 'not-seen', 'learned']);

    await scan([{ ...standby2, state: 'MASTER' }]);
    // "no master", "head-01 stopped answering", "head-02: STANDBY -> MASTER" and "one master
    // again" are the failover: one row, from the last time head-01 was seen as master.
    const events = reply().events;
    expect(events.map((e) => [e.kind, e.fromGuid, e.toGuid])).toEqual([
      ['failover', HEAD1_PORT, HEAD2_PORT],
      ['learned', null, null],
    ]);
    expect(events[0]!.after).toBe(during.at(-1)!.at);
    expect(keys('sm-failover')).toEqual([`sm:${HEAD2_PORT}`]);
    expect(keys('sm-no-master')).toEqual([]);
    // The dead master stays reported, and with it the missing standby.
    expect(keys('sm-not-seen')).toEqual([`sm:${HEAD1_PORT}`]);
    expect(keys('sm-no-standby')).toEqual(['sm:subnet']);
  });

  it(
    'forgets a rogue SM not seen for the scan retention, and keeps a designated one (listed by node ' + 'GUID)',
    async () => {
      const { scan, reply } = await setUp({ IBWATCH_SM_GUIDS: `${HEAD1},${HEAD2}`, IBWATCH_RETENTION_SCAN_DAYS: '1' });
      const t0 = Date.now() - 3 * 86_400_000;
      await scan([master1, standby2, { guid: DGX_PORT, lid: 7, priority: 15, state: 'STANDBY' }], t0);
      await scan([master1], t0 + 1000);
      await scan([master1]);
      expect(reply().sms.map((s) => [s.guid, s.answering])).toEqual([
        [HEAD1_PORT, true],
        [HEAD2_PORT, false],
      ]);
    },
  );
});
