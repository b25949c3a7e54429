import { afterEach, describe, expect, it } from 'vitest';
import { fatTreeSnapshot, generateFatTree, tableRow, type PortCounters } from '@ibwatch/fabric';
import { runPipeline } from './pipeline.ts';
import { storeTopology } from './topology-store.ts';
import { storePm } from './pm-store.ts';
import { CounterBaseline } from './counter-baseline.ts';
import { lastValues } from '../db/counters-repo.ts';
import { testContext } from '../test-support.ts';

const MIN = 60_000;

type Ctx = ReturnType<typeof testContext>;

/** `t` stored by a topology scan; its cabled ports (port 0 is a switch's management port). */
async function storedFabric({ db, config, names }: Ctx, t: ReturnType<typeof fatTreeSnapshot>) {
  await runPipeline(
    db,
    'topology',
    'cli',
    async () => ({ data: t, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeTopology(db, config, names, id, at, c.data),
  );
  return t.ports.filter((p) => p.portNum > 0 && p.state === 'Active');
}

/** One PM sweep through the scan pipeline (at `at()` when given), its baseline committed. */
async function pmSweep({ db, config, names }: Ctx, baseline: CounterBaseline, data: PortCounters[], at?: () => number) {
  const row = await runPipeline(
    db,
    'pm',
    'schedule',
    async () => ({ data, raw: [], toolVersions: {}, warnings: [] }),
    (id, when, cc) => storePm(db, config, names, baseline, id, when, cc.data),
    at,
  );
  expect(row.status).toBe('ok');
  baseline.commit();
  return row;
}

describe('counter baseline: only changed ports are written, restarts lose and double nothing', () => {
  let ctx: Ctx;
  afterEach(() => ctx.cleanup());

  it('rewrites the rows of changed ports only, and a restarted collector continues exactly', async () => {
    ctx = testContext();
    const { db } = ctx;
    const ports = await storedFabric(ctx, fatTreeSnapshot(generateFatTree({ gpus: 8, tiers: 2 })));
    const [a, b, c] = [ports[0]!, ports[1]!, ports[2]!];
    const sweep = (k: number, errs: Map<typeof a, bigint>, skip?: typeof a): PortCounters[] =>
      ports
        .filter((p) => p !== skip)
        .map((p) => ({
          nodeGuid: p.nodeGuid,
          portNum: p.portNum,
          counters: {
            SymbolErrorCounter: errs.get(p) ?? 0n,
            PortRcvErrors: 0n,
            PortXmitWait: 0n,
            PortXmitData: BigInt(k) * 1_000_000n,
          },
        }));
    const t0 = Date.now() - 10 * MIN;
    let baseline = new CounterBaseline(db);
    const store = (k: number, data: PortCounters[]) => pmSweep(ctx, baseline, data, () => t0 + k * MIN);
    const rowsAt = (k: number) =>
      db
        .prepare('SELECT COUNT(*) FROM counter_last WHERE at = ?')
        .pluck()
        .get(t0 + k * MIN);
    const deltas = () =>
      db
        .prepare(
          `SELECT p.node_guid || '/' || p.port_num AS port, d.delta, d.interval_ms / 1000.0 AS s FROM counter_deltas d
          JOIN ports p ON p.id = d.port_id ORDER BY d.at, d.port_id`,
        )
        .all();

    await store(0, sweep(0, new Map()));
    expect(rowsAt(0)).toBe(ports.length); // every port is new
    await store(1, sweep(1, new Map([[a, 4n]])));
    // Data counters moved on every port; only port a's kept counters did.
    expect(rowsAt(1)).toBe(1);
    expect(db.prepare('SELECT at FROM counter_baseline').pluck().get()).toBe(t0 + MIN);
    const row = db
      .prepare('SELECT c.vals, l.names FROM counter_last c JOIN counter_layouts l ON l.id = c.layout_id WHERE c.at = ?')
      .get(t0 + MIN) as { vals: string; names: string };
    expect(JSON.parse(row.names)).toEqual(['SymbolErrorCounter', 'PortRcvErrors', 'PortXmitWait']);
    expect(row.vals).toBe('4,0,0');
    expect(lastValues(row.vals, JSON.parse(row.names) as string[])).toEqual({
      SymbolErrorCounter: '4',
      PortRcvErrors: '0',
      PortXmitWait: '0',
    });

    // Port c is not read in sweep 2; a restart happens before sweep 3.
    await store(
      2,
      sweep(
        2,
        new Map([
          [a, 4n],
          [b, 2n],
        ]),
        c,
      ),
    );
    baseline = new CounterBaseline(db);
    await store(
      3,
      sweep(
        3,
        new Map([
          [a, 10n],
          [b, 2n],
          [c, 5n],
        ]),
      ),
    );
    expect(deltas()).toEqual([
      { port: `${a.nodeGuid}/${a.portNum}`, delta: 4, s: 60 },
      { port: `${b.nodeGuid}/${b.portNum}`, delta: 2, s: 60 },
      { port: `${a.nodeGuid}/${a.portNum}`, delta: 6, s: 60 }, // after the restart: the increase, not the total
      { port: `${c.nodeGuid}/${c.portNum}`, delta: 5, s: 60 }, // against its value before it went unread
    ]);
  });
});

describe('counter_last rows', () => {
  let ctx: Ctx;
  afterEach(() => ctx.cleanup());

  it(
    'keep 64-bit values exact and absent cells absent, and rows stored as JSON before layouts still ' + 'load',
    async () => {
      ctx = testContext();
      const { db } = ctx;
      const [a, b] = await storedFabric(ctx, fatTreeSnapshot(generateFatTree({ gpus: 8, tiers: 2 })));
      const data: PortCounters[] = [
        {
          nodeGuid: a!.nodeGuid,
          portNum: a!.portNum,
          counters: { SymbolErrorCounter: 3n, PortXmitWaitExt: 18446744073709551614n },
        },
        { nodeGuid: b!.nodeGuid, portNum: b!.portNum, counters: { PortXmitWaitExt: 7n } },
      ];
      await pmSweep(ctx, new CounterBaseline(db), data);
      expect(db.prepare('SELECT vals FROM counter_last ORDER BY port_id').pluck().all()).toEqual(
        expect.arrayContaining(['3,18446744073709551614', ',7']),
      );

      // A row as versions before 0003 wrote it: a JSON object and no layout.
      const legacyId = db
        .prepare('SELECT id FROM ports WHERE node_guid = ? AND port_num = ?')
        .pluck()
        .get(b!.nodeGuid, b!.portNum) as number;
      db.prepare('UPDATE counter_last SET vals = ?, layout_id = NULL WHERE port_id = ?').run(
        '{"PortXmitWaitExt":"9","SymbolErrorCounter":"1"}',
        legacyId,
      );

      const loaded = new CounterBaseline(db).load().table!;
      const values = (p: typeof a) =>
        tableRow(
          loaded,
          loaded.nodeGuids.findIndex((g, i) => g === p!.nodeGuid && loaded.portNums[i] === p!.portNum),
        ).counters;
      expect(values(a)).toEqual({ SymbolErrorCounter: 3n, PortXmitWaitExt: 18446744073709551614n });
      expect(values(b)).toEqual({ SymbolErrorCounter: 1n, PortXmitWaitExt: 9n });
    },
  );
});
