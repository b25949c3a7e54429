import { afterAll, describe, expect, it } from 'vitest';
import { testContext } from '../test-support.ts';
import { linksAtEnds, type LinkHealthRow } from './link-health-repo.ts';

const ctx = testContext();
afterAll(() => ctx.cleanup());

// A small fabric written directly: 40 nodes of 8 ports, links between random ports (some
// coloured), so that an end set hits links by their a end, their b end, or both.
let seed = 7;
const rand = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};
const guid = (i: number) => `0x${(0xb83fd20300000000n + BigInt(i)).toString(16)}`;
const ports: [string, number][] = [];
ctx.db.transaction(() => {
  const port = ctx.db.prepare('INSERT INTO ports (node_guid, port_num, first_seen, last_seen) VALUES (?, ?, 1, 1)');
  for (let n = 0; n < 40; n++)
    for (let p = 1; p <= 8; p++) {
      port.run(guid(n), p);
      ports.push([guid(n), p]);
    }
  const link = ctx.db.prepare(
    `INSERT OR IGNORE INTO links (a_port_id, b_port_id, health, reason, first_seen, last_seen)
     VALUES (?, ?, ?, ?, 1, 1)`,
  );
  for (let k = 0; k < 150; k++) {
    const a = 1 + rand(ports.length);
    const b = 1 + rand(ports.length);
    if (a === b) continue;
    const coloured = rand(4) === 0;
    link.run(Math.min(a, b), Math.max(a, b), coloured ? 'errors' : 'ok', coloured ? `symbol errors ${k}` : null);
  }
})();

/** Every link with an end among `ends`, found the plain way: all links, filtered in JS. */
function reference(ends: (string | number)[][]): LinkHealthRow[] {
  const want = new Set(ends.map(([g, p]) => `${g}/${p}`));
  const all = ctx.db
    .prepare(
      `SELECT l.id, l.health, l.reason, pa.node_guid || '/' || pa.port_num AS a,
              pb.node_guid || '/' || pb.port_num AS b FROM links l
       JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id ORDER BY l.id`,
    )
    .all() as LinkHealthRow[];
  return all.filter((l) => want.has(l.a) || want.has(l.b));
}

const byId = (rows: LinkHealthRow[]) => [...rows].sort((x, y) => x.id - y.id);

describe('linksAtEnds()', () => {
  it('returns each link with an end among the ends once, as a scan of every link does', () => {
    let hits = 0;
    for (let round = 0; round < 12; round++) {
      const ends: (string | number)[][] = [];
      for (let k = 0; k < 1 + rand(60); k++) ends.push([...ports[rand(ports.length)]!]);
      // Repeated ends, ends of no port, and a port number of another node.
      ends.push(...ends.slice(0, 3).map((e) => [...e]));
      ends.push(['0xdeadbeef00000000', 1], [guid(1), 99]);
      const got = byId(linksAtEnds(ctx.db, ends));
      const want = reference(ends);
      expect(got).toEqual(want);
      expect(new Set(got.map((l) => l.id)).size).toBe(got.length);
      hits += got.length;
    }
    // The rounds did find links (some by both ends), so the comparison says something.
    expect(hits).toBeGreaterThan(50);
  });

  it('finds nothing for no ends, or only unknown ones', () => {
    expect(linksAtEnds(ctx.db, [])).toEqual([]);
    expect(linksAtEnds(ctx.db, [['0x0000000000000001', 1]])).toEqual([]);
  });
});
