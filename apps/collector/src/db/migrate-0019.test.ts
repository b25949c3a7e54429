// Migration 0019 (issue 19): closed hours of traffic move from traffic_hourly (one 3.8 KB chunk a
// row) to traffic_packed (16 compressed chunks a row). Hours stored before the upgrade must read
// back as they were, before and after the collector packs them, and so must hours packed since.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate.ts';
import { openDb, type Db } from './open-db.ts';
import { CHUNK_PORTS, createTrafficRepo, HOUR_MS, SLOT_BYTES, writeSlot } from './traffic-repo.ts';
import { packGroup, unpackGroup } from './traffic-pack.ts';
import { hotLinks } from '../queries/traffic.ts';
import { NameBook } from '../names.ts';
import { tempDir } from '../test-support.ts';

const tmp = tempDir('ibwatch-migrate-0019-');
afterAll(tmp.cleanup);
const MIGRATIONS = join(import.meta.dirname, 'migrations');
const H0 = 490_000; // an hour number (epoch ms / 3,600,000)
const HOURS = 5;
// Chunks across three groups of 16, with gaps, one short (trailing zeros cut) and a port id
// in the last slot of a chunk.
const CHUNKS = [0, 1, 15, 16, 40, 47];

/** A chunk of `slots` slots with values varied by hour, chunk and slot (some zero). */
function chunkData(h: number, chunk: number, slots: number): Buffer {
  const data = Buffer.alloc(slots * SLOT_BYTES);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < slots; i++) {
    const v = (h * 7919 + chunk * 104_729 + i * 2_654_435_761) >>> 0;
    const idle = v % 5 === 0;
    writeSlot(dv, i * SLOT_BYTES, {
      txAvg: idle ? 0 : v % 10_000,
      txMax: idle ? 0 : (v % 10_000) + (v % 7),
      rxAvg: idle ? 0 : (v >>> 8) % 10_000,
      rxMax: idle ? 0 : ((v >>> 8) % 10_000) + 1,
      waitAvg: v % 3 === 0 ? 0 : v % 4_000_000,
      waitMax: v % 3 === 0 ? 0 : v,
    });
  }
  return data;
}

/** A database at version 18 holding HOURS hours of CHUNKS in traffic_hourly, as 0012's code wrote them. */
function oldDb(name: string): string {
  const before = join(tmp.dir, `${name}-migrations`);
  mkdirSync(before);
  for (const m of listMigrations().filter((m) => m.version < 19))
    copyFileSync(join(MIGRATIONS, m.name), join(before, m.name));
  const file = join(tmp.dir, `${name}.db`);
  const old = new Database(file);
  migrate(old, before);
  expect(old.pragma('user_version', { simple: true })).toBeLessThan(19);
  const put = old.prepare('INSERT INTO traffic_hourly (id, n, data) VALUES (?, ?, ?)');
  for (let h = H0; h < H0 + HOURS; h++)
    for (const c of CHUNKS) put.run(h * 2 ** 20 + c, 50 + h - H0 + c, chunkData(h, c, c === 40 ? 17 : CHUNK_PORTS));
  old.close();
  return file;
}

const NAMES = new NameBook();

/** Nodes and ports for every port id of CHUNKS, so that the hot links name them (4X NDR). */
function addPorts(db: Db): void {
  const node = db.prepare(
    "INSERT INTO nodes (guid, type, description, num_ports, first_seen, last_seen) VALUES (?, 'switch', ?, 200, 0, 0)",
  );
  const port = db.prepare(
    'INSERT INTO ports (id, node_guid, port_num, width_active, speed_active, first_seen, last_seen) ' +
      "VALUES (?, ?, ?, '4X', 'NDR', 0, 0)",
  );
  const guid = (k: number) => '0x' + (k + 1).toString(16).padStart(16, '0');
  db.transaction(() => {
    for (let k = 0; k * 200 < 48 * CHUNK_PORTS; k++) node.run(guid(k), `sw${k}`);
    for (let id = 0; id < 48 * CHUNK_PORTS; id++) port.run(id, guid(Math.floor(id / 200)), (id % 200) + 1);
  })();
}

/** Everything the traffic reads give: every chunk, some ports' hours, the hot links of a week. */
function reads(db: Db) {
  const repo = createTrafficRepo(db);
  const from = H0 * HOUR_MS;
  const to = (H0 + HOURS) * HOUR_MS - 1;
  const chunks = [...repo.chunks(from, to)].map((c) => ({ ...c, data: Buffer.from(c.data).toString('hex') }));
  const ports = [0, 239, 240, 3601, 40 * CHUNK_PORTS + 16, 47 * CHUNK_PORTS + 239, 50 * CHUNK_PORTS].map((id) =>
    repo.portHours(id, from, to),
  );
  const hot = hotLinks(repo, NAMES, to, 168, 50);
  return { chunks, ports, hot };
}

describe('migration 0019', () => {
  it('reads hours stored before it as they were, before and after they are packed', () => {
    const db = openDb(oldDb('keep'));
    try {
      addPorts(db);
      expect(db.pragma('user_version', { simple: true })).toBe(listMigrations().at(-1)!.version);
      const plain = reads(db);
      expect(plain.chunks).toHaveLength(HOURS * CHUNKS.length);
      expect(plain.ports[1]!.length).toBe(HOURS);
      expect(plain.ports[6]).toEqual([]);
      expect(plain.hot.byUtilisation).toHaveLength(50);
      expect(plain.hot.byXmitWait).toHaveLength(50);
      const repo = createTrafficRepo(db);
      // Bounded: the oldest hour first, then the rest but the current (last) one.
      expect(repo.packClosed((H0 + HOURS - 1) * HOUR_MS, 1)).toBe(1);
      const count = (t: string) => db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
      expect(count('traffic_hourly')).toBe((HOURS - 1) * CHUNKS.length);
      expect(count('traffic_packed')).toBe(3);
      expect(reads(db)).toEqual(plain);
      expect(repo.packClosed((H0 + HOURS - 1) * HOUR_MS, 100)).toBe(HOURS - 2);
      expect(count('traffic_hourly')).toBe(CHUNKS.length);
      expect(count('traffic_packed')).toBe(3 * (HOURS - 1));
      expect(reads(db)).toEqual(plain);
      expect(repo.packClosed((H0 + HOURS - 1) * HOUR_MS, 100)).toBe(0);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

      // A packed hour written again (a clock set back) is unpacked first: its other chunks stay.
      const again = chunkData(H0, 1, 3);
      repo.putChunks(H0 * HOUR_MS, [{ chunk: 1, n: 9, data: again }]);
      const after = reads(db);
      expect(after.chunks.filter((c) => c.hour === H0 * HOUR_MS).map((c) => [c.chunk, c.n])).toEqual(
        CHUNKS.map((c) => [c, c === 1 ? 9 : 50 + c]),
      );
      expect(after.chunks.slice(CHUNKS.length)).toEqual(plain.chunks.slice(CHUNKS.length));

      // A reader that stops early leaves the repository usable.
      for (const c of repo.chunks(H0 * HOUR_MS, (H0 + HOURS) * HOUR_MS)) if (c) break;
      expect([...repo.chunks(H0 * HOUR_MS, (H0 + HOURS) * HOUR_MS)]).toHaveLength(HOURS * CHUNKS.length);

      // Pruning removes packed hours too.
      expect(repo.pruneHourly((H0 + 2) * HOUR_MS)).toBe(CHUNKS.length + 3);
      expect(reads(db).chunks.map((c) => c.hour / HOUR_MS)).toEqual([2, 3, 4].flatMap((k) => CHUNKS.map(() => H0 + k)));
    } finally {
      db.close();
    }
  });

  it('packs a group to less than the plain chunks and back to the same bytes', () => {
    const chunks = [3, 0, 9].map((at) => ({ at, n: at + 1, data: chunkData(H0, at, at === 9 ? 5 : CHUNK_PORTS) }));
    const row = packGroup(chunks);
    const plain = chunks.reduce((s, c) => s + c.data.byteLength, 0);
    expect(row.byteLength).toBeLessThan(plain);
    const back = unpackGroup(row).map((c) => ({ ...c, data: Buffer.from(c.data) }));
    expect(back).toEqual([...chunks].sort((a, b) => a.at - b.at));
    expect(unpackGroup(row, 9)).toEqual([{ at: 9, n: 10, data: new Uint8Array(chunks[2]!.data) }]);
    expect(unpackGroup(row, 4)).toEqual([]);
    expect(() => packGroup([{ at: 0, n: 1, data: new Uint8Array(15) }])).toThrow(/whole slots/);
  });
});
