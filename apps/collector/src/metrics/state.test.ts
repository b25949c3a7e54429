// The status report's cables, kept between scrapes (keptCablesAt), must be what a fresh read gives.
import { afterAll, describe, expect, it } from 'vitest';
import { createFabricQueries } from '../db/fabric-queries.ts';
import { contentStamp } from '../db/stamps.ts';
import { createStatusQueries } from '../db/status-queries.ts';
import { bumpTopologyVersion } from '../db/topology-counters.ts';
import { SAMPLE_A, testContext } from '../test-support.ts';
import { keptCablesAt } from './state.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());

describe('keptCablesAt', () => {
  it('answers as cablesAt after other ports, a renamed node and a link gone', async () => {
    expect((await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli')).status).not.toBe('failed');
    const fabric = createFabricQueries(ctx.db, ctx.names);
    const kept = keptCablesAt(
      ctx.db,
      contentStamp(ctx.db, () => `${fabric.nodesStamp()}|${fabric.linksStamp()}`),
    );
    const fresh = createStatusQueries(ctx.db);
    const ends = ctx.db
      .prepare(
        `SELECT p.node_guid || '/' || p.port_num FROM links l JOIN ports p ON p.id = l.a_port_id
         ORDER BY l.id LIMIT 6`,
      )
      .pluck()
      .all() as string[];
    const some = ends.slice(0, 3);
    const other = ends.slice(3);
    const same = (ports: string[]) => {
      const got = kept(ports);
      expect(got).toEqual(fresh.cablesAt(ports));
      return got;
    };
    const first = same(some);
    expect(first.links.length).toBe(3);
    expect(same(some)).toBe(first); // nothing moved: the kept answer
    same(other);
    same(some);
    // A node renamed through a writer that bumps the topology version.
    const guid = some[0]!.split('/')[0]!;
    ctx.db.prepare("UPDATE nodes SET description = 'renamed-for-test' WHERE guid = ?").run(guid);
    bumpTopologyVersion(ctx.db);
    expect(same(some).ends.get(some[0]!)?.description).toBe('renamed-for-test');
    // A link deleted: the links' stamp moves.
    ctx.db.prepare('DELETE FROM links WHERE id = (SELECT MIN(id) FROM links)').run();
    expect(same(some).links.length).toBe(2);
  });
});
