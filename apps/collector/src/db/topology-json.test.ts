// The topology's columns built in slices of the event loop (ready()) must be the bytes a build
// at once gives (parts() without ready()), and a write while they are read must not leave them stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFabric, testContext } from '../test-support.ts';
import { createTopologyJson } from './topology-json.ts';
import { setLinkTiers } from './graph-queries.ts';

const ctx = testContext();
beforeAll(() => seedFabric(ctx));
afterAll(() => ctx.cleanup());

/** The reply a build at once gives now. */
const atOnce = (at: number) => createTopologyJson(ctx.db, ctx.names).json(at);

describe('topology columns built in slices', () => {
  it('gives the bytes of a build at once, whatever the slice', async () => {
    const links = ctx.db.prepare('SELECT COUNT(*) FROM links').pluck().get() as number;
    expect(links).toBeGreaterThan(10);
    for (const slice of [1, 3, 7, links - 1, links, links + 1, 8192]) {
      const sliced = createTopologyJson(ctx.db, ctx.names, { slice });
      await sliced.ready();
      const head = sliced.parts(1).head;
      expect(sliced.json(5)).toBe(atOnce(5));
      // ready() built them: parts() keeps them.
      expect(sliced.parts(6).head).toBe(head);
    }
  });

  /** ctx.names, counting its name() calls: q.nodes() asks once per node, so per build. */
  function counting() {
    const names = {
      calls: 0,
      name: (guid: string, d: string | null | undefined) => (names.calls++, ctx.names.name(guid, d)),
      rack: (guid: string) => ctx.names.rack(guid),
      toJson: () => ctx.names.toJson(),
    };
    return names;
  }
  const nodeCount = () => ctx.db.prepare('SELECT COUNT(*) FROM nodes').pluck().get() as number;

  it('one build for callers that wait at once, none while the topology stays, the loop free meanwhile', async () => {
    const names = counting();
    const json = createTopologyJson(ctx.db, names, { slice: 5 });
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    await Promise.all([json.ready(), json.ready(), json.ready()]);
    clearInterval(tick);
    expect(names.calls).toBe(nodeCount());
    expect(turns).toBeGreaterThan(0);
    const head = json.parts(1).head;
    await json.ready();
    expect(json.parts(2).head).toBe(head);
    expect(names.calls).toBe(nodeCount());
    expect(json.json(3)).toBe(atOnce(3));
  });

  it('reads again when the topology changes while it reads', async () => {
    const names = counting();
    const json = createTopologyJson(ctx.db, names, { slice: 2 });
    const id = ctx.db.prepare("SELECT MIN(id) FROM links WHERE present = 1 AND tier != 'spine-core'").pluck().get();
    const was = ctx.db.prepare('SELECT tier FROM links WHERE id = ?').pluck().get(id) as string;
    const done = json.ready();
    await new Promise((resolve) => setImmediate(resolve));
    setLinkTiers(ctx.db, [[id as number, 'spine-core']]);
    await done;
    expect(names.calls).toBe(2 * nodeCount());
    expect(json.json(4)).toBe(atOnce(4));
    setLinkTiers(ctx.db, [[id as number, was]]);
    await json.ready();
    expect(json.json(5)).toBe(atOnce(5));
  });
});
