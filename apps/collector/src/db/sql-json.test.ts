import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_PORT, seedFabric, testContext } from '../test-support.ts';
import { NameBook } from '../names.ts';
import { createFabricQueries } from './fabric-queries.ts';
import { createCountersRepo } from './counters-repo.ts';
import { createCounterHistory } from './counter-history.ts';
import { createTopologyJson } from './topology-json.ts';

const ctx = testContext();
beforeAll(() => seedFabric(ctx));
afterAll(() => ctx.cleanup());

describe('JSON built by SQLite', () => {
  it('topology links: the same objects, in the same order, as fabric-queries builds', () => {
    for (const names of [
      new NameBook(),
      NameBook.fromMap([[ERROR_PORT.nodeGuid, { name: 'spine "1"', rack: 'R7' }]]),
    ]) {
      const expected = createFabricQueries(ctx.db, names).links();
      const text = createTopologyJson(ctx.db, names).linksJson();
      expect(JSON.parse(text)).toEqual(expected);
      expect(text).toBe(JSON.stringify(expected));
    }
  });

  it("topology links: recoloured and vanished links, each link's JSON kept from the last build", () => {
    const json = createTopologyJson(ctx.db, ctx.names);
    const q = createFabricQueries(ctx.db, ctx.names);
    expect(json.linksJson()).toBe(JSON.stringify(q.links()));
    const [a, b, c] = q
      .links()
      .filter((l) => l.health === 'ok')
      .map((l) => l.id);
    const set = ctx.db.prepare('UPDATE links SET present = ?, health = ?, reason = ? WHERE id = ?');
    set.run(1, 'degraded', 'running at 2X (expected 4X) "x"', a);
    set.run(0, 'down', 'link down', b);
    set.run(0, 'ok', null, c); // gone and not down: off the map
    const expected = q.links();
    expect(expected.map((l) => l.id)).not.toContain(c);
    expect(json.linksJson()).toBe(JSON.stringify(expected));
  });

  it('topology links: the first and the last link re-cut or left out, names in UTF-8, none left', () => {
    const names = NameBook.fromMap([[ERROR_PORT.nodeGuid, { name: 'spine «1» ü', rack: 'Räck 7' }]]);
    const json = createTopologyJson(ctx.db, names);
    const q = createFabricQueries(ctx.db, names);
    const set = ctx.db.prepare('UPDATE links SET present = ?, health = ?, reason = ? WHERE id = ?');
    const ids = ctx.db.prepare('SELECT id FROM links ORDER BY id').pluck().all() as number[];
    expect(json.linksJson()).toBe(JSON.stringify(q.links()));
    set.run(1, 'errors', '12 symbol errors «ü»', ids[0]);
    set.run(0, 'ok', null, ids[ids.length - 1]);
    expect(json.linksJson()).toBe(JSON.stringify(q.links()));
    set.run(1, 'degraded', 'width 4X->2X', ids[ids.length - 1]);
    set.run(0, 'ok', null, ids[0]);
    expect(json.linksJson()).toBe(JSON.stringify(q.links()));
    const all = ctx.db.prepare('SELECT id, present, health, reason FROM links').all() as {
      id: number;
      present: number;
      health: string;
      reason: string | null;
    }[];
    ctx.db.prepare("UPDATE links SET present = 0, health = 'ok', reason = NULL").run();
    expect(json.linksJson()).toBe('[]');
    for (const l of all) set.run(l.present, l.health, l.reason, l.id);
    expect(json.linksJson()).toBe(JSON.stringify(q.links()));
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
