import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_PORT, seedFabric, testContext } from '../test-support.ts';
import { NameBook } from '../names.ts';
import { createFabricQueries } from './fabric-queries.ts';
import { createCountersRepo } from './counters-repo.ts';
import { createCounterHistory } from './counter-history.ts';
import { createTopologyJson } from './topology-json.ts';
import { topologyColumns, topologyObjects, type TopologyReply } from '@ibwatch/fabric';

const ctx = testContext();
beforeAll(() => seedFabric(ctx));
afterAll(() => ctx.cleanup());

describe('JSON built by SQLite', () => {
  // The reply as the pure builder of packages/fabric makes it from fabric-queries' objects.
  const expectedReply = (q: ReturnType<typeof createFabricQueries>, at: number) =>
    topologyColumns({ generatedAt: at, nodes: q.nodes(), links: q.links() });

  it("topology: the columns fabric-queries' objects give, byte for byte, as objects the same objects", () => {
    for (const names of [
      new NameBook(),
      NameBook.fromMap([[ERROR_PORT.nodeGuid, { name: 'spine "1"', rack: 'R7' }]]),
    ]) {
      const q = createFabricQueries(ctx.db, names);
      const text = createTopologyJson(ctx.db, names).json(42);
      const reply = JSON.parse(text) as TopologyReply;
      expect(reply).toEqual(expectedReply(q, 42));
      expect(text.length).toBe(JSON.stringify(expectedReply(q, 42)).length);
      const objects = topologyObjects(reply);
      expect(objects.links).toEqual(q.links());
      expect(new Set(objects.nodes.map((n) => JSON.stringify(n)))).toEqual(
        new Set(q.nodes().map((n) => JSON.stringify(n))),
      );
    }
  });

  it('topology: recoloured and vanished links, the columns kept from the last build', () => {
    const json = createTopologyJson(ctx.db, ctx.names);
    const q = createFabricQueries(ctx.db, ctx.names);
    const head = json.parts(1).head;
    expect(JSON.parse(json.json(1))).toEqual(expectedReply(q, 1));
    const [a, b, c] = q
      .links()
      .filter((l) => l.health === 'ok')
      .map((l) => l.id);
    const set = ctx.db.prepare('UPDATE links SET present = ?, health = ?, reason = ? WHERE id = ?');
    set.run(1, 'degraded', 'running at 2X (expected 4X) "x"', a);
    // A recolouring keeps the columns (the same bytes, not rebuilt).
    expect(JSON.parse(json.json(2))).toEqual(expectedReply(q, 2));
    expect(json.parts(2).head).toBe(head);
    set.run(0, 'down', 'link down', b); // gone while down: still on the map
    expect(JSON.parse(json.json(2))).toEqual(expectedReply(q, 2));
    set.run(0, 'ok', null, c); // gone and not down: off the map
    const expected = expectedReply(q, 3);
    expect(expected.links.id).not.toContain(c);
    expect(JSON.parse(json.json(3))).toEqual(expected);
    const problems = topologyObjects(expected).links.filter((l) => l.health !== 'ok');
    expect(problems.map((l) => [l.id, l.health, l.reason])).toEqual(
      expect.arrayContaining([
        [a, 'degraded', 'running at 2X (expected 4X) "x"'],
        [b, 'down', 'link down'],
      ]),
    );
  });

  it('topology: the first and the last link recoloured or left out, names in UTF-8, none left', () => {
    const names = NameBook.fromMap([[ERROR_PORT.nodeGuid, { name: 'spine «1» ü', rack: 'Räck 7' }]]);
    const json = createTopologyJson(ctx.db, names);
    const q = createFabricQueries(ctx.db, names);
    const set = ctx.db.prepare('UPDATE links SET present = ?, health = ?, reason = ? WHERE id = ?');
    const ids = ctx.db.prepare('SELECT id FROM links ORDER BY id').pluck().all() as number[];
    expect(JSON.parse(json.json(1))).toEqual(expectedReply(q, 1));
    set.run(1, 'errors', '12 symbol errors «ü»', ids[0]);
    set.run(0, 'ok', null, ids[ids.length - 1]);
    expect(JSON.parse(json.json(2))).toEqual(expectedReply(q, 2));
    set.run(1, 'degraded', 'width 4X->2X', ids[ids.length - 1]);
    set.run(0, 'ok', null, ids[0]);
    expect(JSON.parse(json.json(3))).toEqual(expectedReply(q, 3));
    const all = ctx.db.prepare('SELECT id, present, health, reason FROM links').all() as {
      id: number;
      present: number;
      health: string;
      reason: string | null;
    }[];
    ctx.db.prepare("UPDATE links SET present = 0, health = 'ok', reason = NULL").run();
    const none = JSON.parse(json.json(4)) as TopologyReply;
    expect(none.links.id).toEqual([]);
    expect(none.problems).toEqual([]);
    for (const l of all) set.run(l.present, l.health, l.reason, l.id);
    expect(JSON.parse(json.json(5))).toEqual(expectedReply(q, 5));
  });

  it('counter history: the points the counters repository gives, with the same rates', () => {
    const portId = createFabricQueries(ctx.db, ctx.names).portId(ERROR_PORT.nodeGuid, ERROR_PORT.portNum)!;
    const repo = createCountersRepo(ctx.db);
    const history = createCounterHistory(ctx.db);
    const now = Date.now();
    const from = now - 7 * 86_400_000;
    const sweeps = repo.deltas(portId, from, now).map((p) => ({
      at: p.at,
      counter: p.counter,
      delta: p.delta,
      rate: p.intervalS > 0 ? p.delta / p.intervalS : 0,
    }));
    const hours = repo
      .rollups(portId, from, now)
      .map((p) => ({ at: p.at, counter: p.counter, delta: p.delta, rate: p.delta / 3600 }));
    expect(sweeps.length).toBeGreaterThan(1);
    expect(hours.length).toBeGreaterThan(1);
    const byTime = (a: { at: number; counter: string }, b: { at: number; counter: string }) =>
      a.at - b.at || a.counter.localeCompare(b.counter);
    expect(JSON.parse(history.sweepJson(portId, from, now)).sort(byTime)).toEqual(sweeps.sort(byTime));
    expect(JSON.parse(history.hourlyJson(portId, from, now)).sort(byTime)).toEqual(hours.sort(byTime));
    expect(history.sweepJson(portId, now + 1, now + 2)).toBe('[]');
  });
});
