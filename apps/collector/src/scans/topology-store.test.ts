import { afterEach, describe, expect, it } from 'vitest';
import { fatTreeSnapshot, generateFatTree, type FabricPort, type FabricSnapshot } from '@ibwatch/fabric';
import { runPipeline } from './pipeline.ts';
import { storeTopology } from './topology-store.ts';
import { testContext } from '../test-support.ts';

type Ctx = ReturnType<typeof testContext>;

async function scan({ db, config, names }: Ctx, s: FabricSnapshot) {
  const row = await runPipeline(
    db,
    'topology',
    'cli',
    async () => ({ data: s, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeTopology(db, config, names, id, at, c.data),
  );
  expect(row.status).toBe('ok');
  return row.summary as Record<string, number>;
}

/** What a scan leaves for readers: open findings, link health and tiers, node tiers. */
function judged({ db }: Ctx) {
  return {
    findings: db
      .prepare("SELECT kind, severity, subject_key, title, evidence FROM findings WHERE state = 'open' ORDER BY id")
      .all(),
    links: db.prepare('SELECT id, tier, health, reason FROM links ORDER BY id').all(),
    nodes: db.prepare('SELECT guid, description, tier, rail FROM nodes ORDER BY guid').all(),
  };
}

/** The next hour of the fabric: ends down, a link narrower, one slower, a switch renamed. */
function changed(t: ReturnType<typeof generateFatTree>): FabricSnapshot {
  const s = fatTreeSnapshot(t);
  const end = (i: number, e: 'a' | 'b'): FabricPort =>
    s.ports.find((p) => p.nodeGuid === s.links[i]![e].nodeGuid && p.portNum === s.links[i]![e].portNum)!;
  Object.assign(end(3, 'a'), { state: 'Down', physState: 'Polling' });
  Object.assign(end(20, 'b'), { widthActive: '1X' });
  Object.assign(end(21, 'a'), { speedActive: 'SDR' });
  const sw = s.nodes.find((n) => n.type === 'switch' && n.guid === s.links[20]!.b.nodeGuid)!;
  sw.description = `${sw.description} (renamed)`;
  return s;
}

describe('storeTopology: a scan that writes no row judges as a full one', () => {
  let ctx: Ctx;
  afterEach(() => ctx.cleanup());

  it('repeats the changed scan verdicts exactly when the same data comes again', async () => {
    ctx = testContext({ IBWATCH_EXPECTED_RATE: '4X HDR' });
    const t = generateFatTree({ gpus: 64, tiers: 2 });
    await scan(ctx, fatTreeSnapshot(t));
    await scan(ctx, fatTreeSnapshot(t));
    expect(judged(ctx).findings).toEqual([]);
    // A changed scan writes rows and is judged in full (nodes read back after the ingest).
    await scan(ctx, changed(t));
    const full = judged(ctx);
    const kinds = full.findings.map((f) => (f as { kind: string }).kind);
    expect(kinds).toContain('link-down');
    expect(kinds).toContain('link-degraded-width');
    expect(full.findings.some((f) => (f as { title: string }).title.includes('(renamed)'))).toBe(true);
    // The same data again writes no row: the nodes knownGraph read are reused, with the same result.
    const again = await scan(ctx, changed(t));
    expect(again['findingsOpened']).toBe(0);
    expect(again['findingsResolved']).toBe(0);
    expect(judged(ctx)).toEqual(full);
  });
});
