import { describe, expect, it } from 'vitest';
import type { FabricLink, FabricNode, FabricPort } from '@ibwatch/fabric';
import { openDb, type Db } from './open-db.ts';
import { createTopologyRepo } from './topology-repo.ts';
import { topologyVersion } from './topology-counters.ts';
import { lastSeenSql } from './topology-seen.ts';

const SW = '0xa000000000000001';
const CA = '0xb000000000000001';
const nodes: FabricNode[] = [
  { guid: SW, type: 'switch', description: 'leaf-01', numPorts: 3 },
  { guid: CA, type: 'ca', description: 'gpu-01 mlx5_0', numPorts: 1 },
];
const up = (nodeGuid: string, portNum: number, lid: number): FabricPort => ({
  nodeGuid,
  portNum,
  lid,
  state: 'Active',
  physState: 'LinkUp',
  widthActive: '4X',
  speedActive: 'HDR',
  widthEnabled: ['1X', '4X'],
});
const links: FabricLink[] = [{ a: { nodeGuid: SW, portNum: 1 }, b: { nodeGuid: CA, portNum: 1 } }];

function stored(db: Db) {
  return db
    .prepare(
      `SELECT node_guid AS g, port_num AS n, lid, state, ${lastSeenSql('p')} AS seen FROM ports p
       ORDER BY node_guid, port_num`,
    )
    .all();
}
const history = (db: Db) =>
  db.prepare('SELECT port_id AS id, at, state FROM port_state_history ORDER BY at, port_id').all();

describe('topology repo ingest', () => {
  it('writes only what changed of known ports, their state history, and the new ports', () => {
    const db = openDb(':memory:');
    const repo = createTopologyRepo(db);
    const first = repo.ingest(1, 1000, nodes, [up(SW, 1, 5), up(SW, 2, 5), up(CA, 1, 7)], links, true);
    expect(first).toMatchObject({ newNodes: 2, newPorts: 3, newLinks: 1, stateChanges: [] });
    expect(history(db)).toHaveLength(3);

    // Port 2 goes down, the HCA gets another LID (no state change), port 3 is new.
    const down: FabricPort = { ...up(SW, 2, 5), state: 'Down', physState: 'Polling' };
    const second = repo.ingest(2, 2000, nodes, [up(SW, 1, 5), down, up(CA, 1, 9), up(SW, 3, 5)], links, true);
    expect(second.newPorts).toBe(1);
    expect(second.stateChanges.map((c) => [c.from.nodeGuid, c.from.portNum, c.from.state, c.to.state])).toEqual([
      [SW, 2, 'Active', 'Down'],
    ]);
    expect(stored(db)).toEqual([
      { g: SW, n: 1, lid: 5, state: 'Active', seen: 2000 },
      { g: SW, n: 2, lid: 5, state: 'Down', seen: 2000 },
      { g: SW, n: 3, lid: 5, state: 'Active', seen: 2000 },
      { g: CA, n: 1, lid: 9, state: 'Active', seen: 2000 },
    ]);
    expect(history(db).filter((h) => (h as { at: number }).at === 2000)).toEqual([
      { id: second.stateChanges[0]!.portId, at: 2000, state: 'Down' },
      { id: 4, at: 2000, state: 'Active' },
    ]);

    // A port the scan does not list keeps its last state and last-seen time.
    repo.ingest(3, 3000, nodes, [up(SW, 1, 5), up(CA, 1, 9)], links, true);
    expect(stored(db)).toContainEqual({ g: SW, n: 2, lid: 5, state: 'Down', seen: 2000 });
    expect(stored(db)).toContainEqual({ g: CA, n: 1, lid: 9, state: 'Active', seen: 3000 });
  });

  it('gives new ports and links the ids SQLite would, and joins links to the right ports', () => {
    const db = openDb(':memory:');
    const repo = createTopologyRepo(db);
    const schema = () => db.prepare('SELECT * FROM sqlite_master ORDER BY name').all();
    const before = schema();
    // Into empty tables, in a transaction as a scan does: their own indexes are built after the rows.
    db.transaction(() => repo.ingest(1, 1000, nodes, [up(SW, 1, 5), up(SW, 2, 5), up(CA, 1, 7)], links, true))();
    expect(schema().map((r) => ({ ...(r as object), rootpage: 0 }))).toEqual(
      before.map((r) => ({ ...(r as object), rootpage: 0 })),
    );
    expect(db.prepare('SELECT id FROM ports INDEXED BY ports_lid WHERE lid = 7').pluck().all()).toEqual([3]);
    // The newest port and its link deleted behind ingest's back: their ids are free again.
    db.exec('DELETE FROM links; DELETE FROM port_state_history WHERE port_id = 3; DELETE FROM ports WHERE id = 3');
    const l2: FabricLink[] = [...links, { a: { nodeGuid: SW, portNum: 3 }, b: { nodeGuid: CA, portNum: 2 } }];
    const r = repo.ingest(2, 2000, nodes, [up(SW, 1, 5), up(CA, 2, 8), up(CA, 1, 7), up(SW, 3, 5)], l2, true);
    expect(r).toMatchObject({ newPorts: 3, newLinks: 2 });
    const ports = db.prepare('SELECT id, node_guid AS g, port_num AS n FROM ports ORDER BY id').all();
    expect(ports).toEqual([
      { id: 1, g: SW, n: 1 },
      { id: 2, g: SW, n: 2 },
      { id: 3, g: CA, n: 2 },
      { id: 4, g: CA, n: 1 },
      { id: 5, g: SW, n: 3 },
    ]);
    const ends = db
      .prepare(
        `SELECT l.id, pa.node_guid AS ag, pa.port_num AS ap, pb.node_guid AS bg, pb.port_num AS bp FROM links l
         JOIN ports pa ON pa.id = l.a_port_id JOIN ports pb ON pb.id = l.b_port_id ORDER BY l.id`,
      )
      .all();
    expect(ends).toEqual([
      { id: 1, ag: SW, ap: 1, bg: CA, bp: 1 },
      { id: 2, ag: CA, ap: 2, bg: SW, bp: 3 },
    ]);
    expect([...r.seenLinks].sort()).toEqual([1, 2]);
    // Their first state rows, by the same ids.
    expect(history(db).filter((h) => (h as { at: number }).at === 2000)).toEqual([
      { id: 3, at: 2000, state: 'Active' },
      { id: 4, at: 2000, state: 'Active' },
      { id: 5, at: 2000, state: 'Active' },
    ]);
  });

  it('applies a known port listed twice in order, and keeps the first listing of a new one', () => {
    const db = openDb(':memory:');
    const repo = createTopologyRepo(db);
    repo.ingest(1, 1000, nodes, [up(SW, 1, 5), up(CA, 1, 7)], links, true);
    const down: FabricPort = { ...up(SW, 1, 5), state: 'Down', physState: 'Polling' };
    const r = repo.ingest(2, 2000, nodes, [down, up(SW, 1, 5), up(SW, 2, 6), up(SW, 2, 8), up(CA, 1, 7)], links, true);
    // Down, then Active again: two history rows, the last listing stored.
    expect(r.stateChanges.map((c) => c.to.state)).toEqual(['Down', 'Active']);
    expect(stored(db)).toContainEqual({ g: SW, n: 1, lid: 5, state: 'Active', seen: 2000 });
    expect(stored(db)).toContainEqual({ g: SW, n: 2, lid: 6, state: 'Active', seen: 2000 });
    expect(r.newPorts).toBe(1);
  });

  it('writes no node, port or link an unchanged re-scan sees again, and keeps last-seen times exact', () => {
    const db = openDb(':memory:');
    const repo = createTopologyRepo(db);
    const ports = [up(SW, 1, 5), up(SW, 2, 5), up(CA, 1, 7)];
    repo.ingest(1, 1000, nodes, ports, links, true);
    const version = topologyVersion(db);
    const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const before = changes();
    const again = repo.ingest(2, 2000, nodes, ports, links, true);
    // One row: the scan's time in topology_seen. Readers of the topology version keep what they built.
    expect(changes() - before).toBe(1);
    expect(topologyVersion(db)).toBe(version);
    expect(again).toMatchObject({ newNodes: 0, newPorts: 0, newLinks: 0, stateChanges: [], goneLinks: [] });
    expect(again.seenLinks.size).toBe(1);
    const seen = (table: string) =>
      db
        .prepare(`SELECT ${lastSeenSql('t')} FROM ${table} t ORDER BY rowid`)
        .pluck()
        .all() as number[];
    const nodeSeen = () =>
      db
        .prepare(`SELECT ${lastSeenSql('t')} FROM nodes t ORDER BY guid`)
        .pluck()
        .all() as number[];
    expect(stored(db).map((p) => (p as { seen: number }).seen)).toEqual([2000, 2000, 2000]);
    expect(nodeSeen()).toEqual([2000, 2000]);
    expect(seen('links')).toEqual([2000]);

    // The HCA, its port and the link are gone at 3000: they keep 2000, the rest moves on.
    const gone = repo.ingest(3, 3000, [nodes[0]!], [up(SW, 1, 5), up(SW, 2, 5)], [], true);
    expect(gone.goneLinks).toHaveLength(1);
    expect(topologyVersion(db)).toBeGreaterThan(version);
    expect(stored(db).map((p) => (p as { seen: number }).seen)).toEqual([3000, 3000, 2000]);
    expect(nodeSeen()).toEqual([3000, 2000]);
    expect(seen('links')).toEqual([2000]);
    repo.ingest(4, 4000, [nodes[0]!], [up(SW, 1, 5), up(SW, 2, 5)], [], true);
    expect(nodeSeen()).toEqual([4000, 2000]);
    expect(seen('links')).toEqual([2000]);

    // Back at 5000: seen again, the link present again.
    const back = repo.ingest(5, 5000, nodes, ports, links, true);
    expect(back.seenLinks.size).toBe(1);
    expect(stored(db).map((p) => (p as { seen: number }).seen)).toEqual([5000, 5000, 5000]);
    expect(nodeSeen()).toEqual([5000, 5000]);
    expect(seen('links')).toEqual([5000]);
    expect(db.prepare('SELECT present FROM links').pluck().all()).toEqual([1]);
  });

  it('skips the comparison of a scan identical to the latest one, with the same outcome as comparing', () => {
    const ports = [up(SW, 1, 5), up(SW, 2, 5), up(CA, 1, 7)];
    const dump = (db: Db) => ({
      nodes: db.prepare(`SELECT *, ${lastSeenSql('t')} AS seen FROM nodes t ORDER BY guid`).all(),
      ports: db.prepare(`SELECT *, ${lastSeenSql('t')} AS seen FROM ports t ORDER BY id`).all(),
      links: db.prepare(`SELECT *, ${lastSeenSql('t')} AS seen FROM links t ORDER BY id`).all(),
      history: history(db),
    });
    const run = (forceCompare: boolean) => {
      const db = openDb(':memory:');
      const repo = createTopologyRepo(db);
      repo.ingest(1, 1000, nodes, ports, links, true);
      if (forceCompare) db.prepare('UPDATE topology_seen SET input = NULL').run();
      const before = db.prepare('SELECT total_changes()').pluck().get() as number;
      const r = repo.ingest(2, 2000, nodes, ports, links, true);
      const written = (db.prepare('SELECT total_changes()').pluck().get() as number) - before;
      // The listed ports' index is a by-product of comparing (evaluateLinks reuses it), not an outcome.
      const { listedPorts, ...outcome } = r;
      return { db, repo, r: { ...outcome, seenLinks: [...r.seenLinks] }, listed: listedPorts !== undefined, written };
    };
    const skipped = run(false);
    const compared = run(true);
    expect([skipped.listed, compared.listed]).toEqual([false, true]);
    expect(skipped.r).toEqual(compared.r);
    expect(dump(skipped.db)).toEqual(dump(compared.db));
    expect(skipped.written).toBe(1);

    // One port's state differs: compared, and its change found.
    const down: FabricPort = { ...up(SW, 2, 5), state: 'Down', physState: 'Polling' };
    const r3 = skipped.repo.ingest(3, 3000, nodes, [up(SW, 1, 5), down, up(CA, 1, 7)], links, true);
    expect(r3.stateChanges.map((c) => c.to.state)).toEqual(['Down']);
    // A link deleted behind ingest's back (the row counts moved): compared, and stored again.
    skipped.db.prepare('DELETE FROM links').run();
    const r4 = skipped.repo.ingest(4, 4000, nodes, [up(SW, 1, 5), down, up(CA, 1, 7)], links, true);
    expect(r4.newLinks).toBe(1);
    expect(r4.wrote).toBe(true);
    // A port listed twice (Down, then Active) is applied listing by listing at every scan.
    for (const [scan, at] of [
      [5, 5000],
      [6, 6000],
    ]) {
      const r = skipped.repo.ingest(scan!, at!, nodes, [down, up(SW, 2, 5), up(SW, 1, 5), up(CA, 1, 7)], links, true);
      expect(r.stateChanges.map((c) => c.to.state)).toEqual(scan === 5 ? ['Active'] : ['Down', 'Active']);
    }
  });
});

describe('topology repo ingest: the listed ports it hands on', () => {
  it('indexes each port of the scan as evaluateLinks would, and hands none when a port is listed twice', () => {
    const db = openDb(':memory:');
    const repo = createTopologyRepo(db);
    const scans = [
      [up(SW, 1, 5), up(SW, 2, 5), up(CA, 1, 7)],
      // Changed: a port gone, one new, one with a new lid and state.
      [up(SW, 1, 5), { ...up(CA, 1, 9), state: 'Down' as const }, up(SW, 3, 5)],
    ];
    scans.forEach((ports, k) => {
      const r = db.transaction(() => repo.ingest(k + 1, 1000 * (k + 1), nodes, ports, links, true))();
      const index = r.listedPorts!;
      for (const p of ports) expect(index.get(p.nodeGuid, p.portNum)).toBe(p);
      // Nothing else: a port of the first scan the second does not list is not in it.
      expect(index.get(SW, k === 0 ? 3 : 2)).toBeUndefined();
    });
    const twice = [up(SW, 1, 5), up(SW, 1, 6), up(CA, 1, 9)];
    expect(repo.ingest(3, 3000, nodes, twice, links, true).listedPorts).toBeUndefined();
  });
});
