import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { readIbdiagnetDir } from '../input/ibdiagnet-dir.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { smSummary } from '../queries/sm-view.ts';
import { SAMPLE_A, SAMPLE_B, testContext } from '../test-support.ts';

const ctx = testContext();
const one = (sql: string) => ctx.db.prepare(sql).pluck().get() as number;
const counts = () => ({
  nodes: one('SELECT COUNT(*) FROM nodes'),
  switches: one("SELECT COUNT(*) FROM nodes WHERE type = 'switch'"),
  cas: one("SELECT COUNT(*) FROM nodes WHERE type = 'ca'"),
  ports: one('SELECT COUNT(*) FROM ports'),
  links: one('SELECT COUNT(*) FROM links WHERE present = 1'),
});
let a: ScanRow;
let parsedA: Awaited<ReturnType<typeof readIbdiagnetDir>>;

beforeAll(async () => {
  parsedA = await readIbdiagnetDir(SAMPLE_A);
  a = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
});
afterAll(() => ctx.cleanup());

describe('importIbdiagnet() of the real ndr-fat-tree-a run', () => {
  it('stores every node, port and link the parser read', () => {
    const v = parsedA.value;
    expect([v.nodes.length, v.links.length]).toEqual([272, 271]);
    expect(counts()).toEqual({
      nodes: 272,
      switches: 9,
      cas: 263,
      ports: v.ports.length,
      links: 271,
    });
    expect(v.nodes.filter((n) => n.type === 'switch')).toHaveLength(9);
  });

  it('records the scan as partial with the parser warning about the stale .cables file', () => {
    expect(a).toMatchObject({ kind: 'import-ibdiagnet', trigger: 'cli', status: 'partial', error: null });
    expect(a.toolVersions.ibdiagnet).toMatch(/^IBDIAGNET 2\.10/);
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings[0]).toMatch(/^ibdiagnet2\.cables:.*from another ibdiagnet run.*skipped$/);
    expect(a.summary).toMatchObject({
      takenAt: '2025-03-31T23:43:18Z',
      'topology.nodes': 272,
      'topology.links': 271,
      'topology.newLinks': 271,
      'pm.ports': parsedA.value.counters.rows,
      'sm.sms': 1,
      'sm.status': 'no-standby',
      cables: 0,
    });
  });

  it('stores no cable info from the .cables of another run', () => {
    expect(one('SELECT COUNT(*) FROM cables')).toBe(0);
  });

  it('keeps the PM counters as the baseline of the next sweep', () => {
    expect(one('SELECT COUNT(*) FROM counter_last')).toBe(parsedA.value.counters.rows);
  });

  it('records one MASTER SM with priority 12, named from its node description', () => {
    expect(createSmRepo(ctx.db).known()).toEqual([
      expect.objectContaining({
        guid: '0xb0cf0e0300d33fc0',
        state: 'MASTER',
        priority: 12,
        lid: 180,
        name: 'MF0;ib-switch-sequoia:MQM9700/U1',
      }),
    ]);
    // The run lists one SM: it becomes the designated one, and the fabric has no standby.
    expect(smSummary(ctx, Date.now())).toMatchObject({
      status: 'no-standby',
      masterGuid: '0xb0cf0e0300d33fc0',
      masterName: 'MF0;ib-switch-sequoia:MQM9700/U1',
      masterCount: 1,
      standbyCount: 0,
      missingCount: 0,
      rogueCount: 0,
    });
  });

  it('infers the tiers: one spine, eight leaves, 256 HCAs, hca-leaf and leaf-spine links', () => {
    const tiers = Object.fromEntries(
      (
        ctx.db.prepare("SELECT tier, COUNT(*) AS n FROM nodes WHERE type = 'switch' GROUP BY tier").all() as {
          tier: string;
          n: number;
        }[]
      ).map((r) => [r.tier, r.n]),
    );
    expect(tiers).toEqual({ spine: 1, leaf: 8 });
    expect(one("SELECT COUNT(*) FROM links WHERE tier = 'hca-leaf'")).toBe(256);
    expect(one("SELECT COUNT(*) FROM links WHERE tier = 'leaf-spine'")).toBe(8);
  });
});

describe('importIbdiagnet() again', () => {
  it(
    'does not duplicate nodes, ports or links when the same fabric is imported twice (run b, then a ' + 'again)',
    async () => {
      const before = counts();
      const b = await ctx.scans.importIbdiagnet(SAMPLE_B, 'api');
      expect(b).toMatchObject({ status: 'ok', warnings: [] });
      expect(b.summary).toMatchObject({ 'topology.newLinks': 0, 'topology.goneLinks': 0 });
      const again = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
      expect(again.status).toBe('partial');
      expect(counts()).toEqual(before);
      expect(one('SELECT COUNT(*) FROM links')).toBe(271);
    },
  );

  it('fails naming the directory when it does not exist, storing nothing', async () => {
    const before = counts();
    const r = await ctx.scans.importIbdiagnet('/nonexistent/ibdiagnet2', 'cli');
    expect(r).toMatchObject({ status: 'failed', error: '/nonexistent/ibdiagnet2: no such directory' });
    expect(counts()).toEqual(before);
  });
});
