import type { Db } from './open-db.ts';
import { BatchInsert } from './batch-insert.ts';
import { GROUP_CHUNKS, packGroup, SLOT_BYTES, unpackGroup } from './traffic-pack.ts';

/** Port ids per hourly row: 240 x 16-byte slots = 3,840 bytes, one row per 4 KB page. */
export const CHUNK_PORTS = 240;
export { SLOT_BYTES };
const CHUNK_SPAN = 2 ** 20;
export const HOUR_MS = 3_600_000;

/** One port's hour: utilisation in 1/10,000 of the link rate, XmitWait in ticks/s. */
export interface HourSlot {
  txAvg: number;
  txMax: number;
  rxAvg: number;
  rxMax: number;
  waitAvg: number;
  waitMax: number;
}

export function readSlot(data: Uint8Array, offset: number): HourSlot {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (offset + SLOT_BYTES > data.byteLength) return { txAvg: 0, txMax: 0, rxAvg: 0, rxMax: 0, waitAvg: 0, waitMax: 0 };
  return {
    txAvg: dv.getUint16(offset, true),
    txMax: dv.getUint16(offset + 2, true),
    rxAvg: dv.getUint16(offset + 4, true),
    rxMax: dv.getUint16(offset + 6, true),
    waitAvg: dv.getUint32(offset + 8, true),
    waitMax: dv.getUint32(offset + 12, true),
  };
}

export function writeSlot(dv: DataView, offset: number, s: HourSlot): void {
  dv.setUint16(offset, s.txAvg, true);
  dv.setUint16(offset + 2, s.txMax, true);
  dv.setUint16(offset + 4, s.rxAvg, true);
  dv.setUint16(offset + 6, s.rxMax, true);
  dv.setUint32(offset + 8, Math.min(s.waitAvg, 0xffff_ffff), true);
  dv.setUint32(offset + 12, Math.min(s.waitMax, 0xffff_ffff), true);
}

export interface HourChunk {
  hour: number;
  chunk: number;
  n: number;
  data: Uint8Array;
}

export interface RecentRow {
  portId: number;
  txBps: number;
  rxBps: number;
  waitTps: number;
}

export interface TrafficPortInfo {
  id: number;
  guid: string;
  port: number;
  width: string | null;
  speed: string | null;
  type: string | null;
  tier: string | null;
  description: string | null;
  remoteGuid: string | null;
  remotePort: number | null;
  remoteType: string | null;
  remoteTier: string | null;
  remoteDescription: string | null;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS);

const GROUP_SPAN = 2 ** 16;

type Stored = { id: number; n: number; data: Buffer };

export function createTrafficRepo(db: Db) {
  const put = db.prepare('INSERT OR REPLACE INTO traffic_hourly (id, n, data) VALUES (?, ?, ?)');
  const slot = db.prepare('SELECT n, substr(data, ?, ?) AS s FROM traffic_hourly WHERE id = ?');
  const range = db.prepare('SELECT id, n, data FROM traffic_hourly WHERE id >= ? AND id < ?');
  const packedRange = db.prepare('SELECT id, data FROM traffic_packed WHERE id >= ? AND id < ? ORDER BY id');
  const packedRow = db.prepare('SELECT data FROM traffic_packed WHERE id = ?').pluck();
  const hasPacked = db.prepare('SELECT 1 FROM traffic_packed WHERE id >= ? AND id < ? LIMIT 1').pluck();
  const putPacked = db.prepare('INSERT OR REPLACE INTO traffic_packed (id, data) VALUES (?, ?)');
  const oldest = db.prepare('SELECT MIN(id) FROM traffic_hourly WHERE id < ?').pluck();
  const dropHour = db.prepare('DELETE FROM traffic_hourly WHERE id >= ? AND id < ?');
  const dropPacked = db.prepare('DELETE FROM traffic_packed WHERE id >= ? AND id < ?');

  /** The packed chunks of hours [h0, h1) as rows of traffic_hourly's form, in id order. */
  function* packedChunks(h0: number, h1: number): Generator<Stored> {
    for (const r of packedRange.iterate(h0 * GROUP_SPAN, h1 * GROUP_SPAN) as Iterable<{ id: number; data: Buffer }>) {
      const h = Math.floor(r.id / GROUP_SPAN);
      const first = (r.id - h * GROUP_SPAN) * GROUP_CHUNKS;
      for (const c of unpackGroup(r.data)) {
        const data = Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength);
        yield { id: h * CHUNK_SPAN + first + c.at, n: c.n, data };
      }
    }
  }

  /** Back to plain rows: an hour that is written again after it was packed (a clock set back). */
  function unpackHour(h: number): void {
    if (hasPacked.get(h * GROUP_SPAN, (h + 1) * GROUP_SPAN) === undefined) return;
    for (const r of [...packedChunks(h, h + 1)]) put.run(r.id, r.n, r.data);
    dropPacked.run(h * GROUP_SPAN, (h + 1) * GROUP_SPAN);
  }

  return {
    /** Writes (replaces) chunks of one hour; `hour` in epoch ms, any time within it. */
    putChunks(hourMs: number, chunks: readonly { chunk: number; n: number; data: Uint8Array }[]): void {
      const h = hourOf(hourMs);
      unpackHour(h);
      for (const c of chunks) put.run(h * CHUNK_SPAN + c.chunk, c.n, c.data);
    },
    /**
     * Packs up to `maxHours` of the oldest hours before the hour of `beforeMs` (closed hours: no
     * sweep adds to them) into traffic_packed; returns the hours packed. A bounded number per
     * call: after an upgrade, a month of plain hours is packed over the next sweeps, not in one.
     */
    packClosed(beforeMs: number, maxHours: number): number {
      let done = 0;
      for (; done < maxHours; done++) {
        const first = oldest.get(hourOf(beforeMs) * CHUNK_SPAN) as number | null;
        if (first === null) break;
        const h = Math.floor(first / CHUNK_SPAN);
        const groups = new Map<number, { at: number; n: number; data: Uint8Array }[]>();
        for (const r of range.iterate(h * CHUNK_SPAN, (h + 1) * CHUNK_SPAN) as Iterable<Stored>) {
          const chunk = r.id - h * CHUNK_SPAN;
          const g = Math.floor(chunk / GROUP_CHUNKS);
          let list = groups.get(g);
          if (!list) groups.set(g, (list = []));
          // An empty row (no slot) is the same as no row to every reader.
          if (r.data.byteLength >= SLOT_BYTES) list.push({ at: chunk % GROUP_CHUNKS, n: r.n, data: r.data });
        }
        for (const [g, list] of groups) if (list.length > 0) putPacked.run(h * GROUP_SPAN + g, packGroup(list));
        dropHour.run(h * CHUNK_SPAN, (h + 1) * CHUNK_SPAN);
      }
      return done;
    },
    /** The stored chunks of the hours in [fromMs, toMs], oldest first. */
    *chunks(fromMs: number, toMs: number): Generator<HourChunk> {
      const h0 = hourOf(fromMs);
      const h1 = hourOf(toMs) + 1;
      // Packed (closed) and plain hours, merged in id order; an hour is one or the other.
      const plain = (range.iterate(h0 * CHUNK_SPAN, h1 * CHUNK_SPAN) as Iterable<Stored>)[Symbol.iterator]();
      const packed = packedChunks(h0, h1);
      let a = plain.next();
      let b = packed.next();
      try {
        while (!a.done || !b.done) {
          let r: Stored;
          if (b.done || (!a.done && a.value.id < b.value.id)) {
            r = a.value as Stored;
            a = plain.next();
          } else {
            r = b.value;
            b = packed.next();
          }
          const h = Math.floor(r.id / CHUNK_SPAN);
          yield { hour: h * HOUR_MS, chunk: r.id - h * CHUNK_SPAN, n: r.n, data: r.data };
        }
      } finally {
        // A reader that stops early must not leave the statements busy.
        plain.return?.();
        packed.return(undefined);
      }
    },
    /** One port's hours in [fromMs, toMs] (hours without a row are left out): a point look-up per hour. */
    portHours(portId: number, fromMs: number, toMs: number): ({ at: number; n: number } & HourSlot)[] {
      const chunk = Math.floor(portId / CHUNK_PORTS);
      const offset = (portId % CHUNK_PORTS) * SLOT_BYTES;
      const group = Math.floor(chunk / GROUP_CHUNKS);
      const out: ({ at: number; n: number } & HourSlot)[] = [];
      for (let h = hourOf(fromMs); h <= hourOf(toMs); h++) {
        let r = slot.get(offset + 1, SLOT_BYTES, h * CHUNK_SPAN + chunk) as { n: number; s: Uint8Array } | undefined;
        if (!r) {
          const row = packedRow.get(h * GROUP_SPAN + group) as Buffer | undefined;
          const c = row && unpackGroup(row, chunk % GROUP_CHUNKS)[0];
          if (c) r = { n: c.n, s: c.data.subarray(offset, offset + SLOT_BYTES) };
        }
        if (!r || r.s.byteLength < SLOT_BYTES) continue;
        out.push({ at: h * HOUR_MS, n: r.n, ...readSlot(r.s, 0) });
      }
      return out;
    },
    addRecent(at: number, rows: readonly RecentRow[]): void {
      const out = new BatchInsert(
        db,
        'INSERT OR REPLACE INTO traffic_recent (port_id, at, tx_bps, rx_bps, wait_tps)',
        5,
      );
      for (const r of rows) out.add(r.portId, at, Math.round(r.txBps), Math.round(r.rxBps), Math.round(r.waitTps));
      out.flush();
    },
    /** One port's sweeps in [from, to] (only while it was among the busiest). */
    recent(portId: number, from: number, to: number): ({ at: number } & Omit<RecentRow, 'portId'>)[] {
      return db
        .prepare(
          `SELECT at, tx_bps AS txBps, rx_bps AS rxBps, wait_tps AS waitTps FROM traffic_recent
           WHERE port_id = ? AND at >= ? AND at <= ? ORDER BY at`,
        )
        .all(portId, from, to) as ({ at: number } & Omit<RecentRow, 'portId'>)[];
    },
    /** What the hot-links view shows of some ports: both ends' names, tiers and the link rate. */
    portsInfo(ids: readonly number[]): TrafficPortInfo[] {
      if (ids.length === 0) return [];
      return db
        .prepare(
          `SELECT p.id, p.node_guid AS guid, p.port_num AS port, p.width_active AS width, p.speed_active AS speed,
                  n.type, n.tier, n.description, p.remote_guid AS remoteGuid, p.remote_port AS remotePort,
                  rn.type AS remoteType, rn.tier AS remoteTier, rn.description AS remoteDescription
           FROM json_each(?) j JOIN ports p ON p.id = j.value
           LEFT JOIN nodes n ON n.guid = p.node_guid LEFT JOIN nodes rn ON rn.guid = p.remote_guid`,
        )
        .all(JSON.stringify(ids)) as TrafficPortInfo[];
    },
    pruneRecent(before: number): number {
      return db.prepare('DELETE FROM traffic_recent WHERE at < ?').run(before).changes;
    },
    pruneHourly(before: number): number {
      const plain = db.prepare('DELETE FROM traffic_hourly WHERE id < ?').run(hourOf(before) * CHUNK_SPAN).changes;
      const packed = dropPacked.run(0, hourOf(before) * GROUP_SPAN).changes;
      return plain + packed;
    },
  };
}
export type TrafficRepo = ReturnType<typeof createTrafficRepo>;
