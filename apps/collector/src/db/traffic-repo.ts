import type { Db } from './open-db.ts';
import { BatchInsert } from './batch-insert.ts';

/** Port ids per hourly row: 240 x 16-byte slots = 3,840 bytes, one row per 4 KB page. */
export const CHUNK_PORTS = 240;
export const SLOT_BYTES = 16;
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

export function createTrafficRepo(db: Db) {
  const put = db.prepare('INSERT OR REPLACE INTO traffic_hourly (id, n, data) VALUES (?, ?, ?)');
  const slot = db.prepare('SELECT n, substr(data, ?, ?) AS s FROM traffic_hourly WHERE id = ?');
  const range = db.prepare('SELECT id, n, data FROM traffic_hourly WHERE id >= ? AND id < ?');
  return {
    /** Writes (replaces) chunks of one hour; `hour` in epoch ms, any time within it. */
    putChunks(hourMs: number, chunks: readonly { chunk: number; n: number; data: Uint8Array }[]): void {
      const h = hourOf(hourMs);
      for (const c of chunks) put.run(h * CHUNK_SPAN + c.chunk, c.n, c.data);
    },
    /** The stored chunks of the hours in [fromMs, toMs], oldest first. */
    *chunks(fromMs: number, toMs: number): Generator<HourChunk> {
      const rows = range.iterate(hourOf(fromMs) * CHUNK_SPAN, (hourOf(toMs) + 1) * CHUNK_SPAN) as Iterable<{
        id: number;
        n: number;
        data: Buffer;
      }>;
      for (const r of rows) {
        const h = Math.floor(r.id / CHUNK_SPAN);
        yield { hour: h * HOUR_MS, chunk: r.id - h * CHUNK_SPAN, n: r.n, data: r.data };
      }
    },
    /** One port's hours in [fromMs, toMs] (hours without a row are left out): a point look-up per hour. */
    portHours(portId: number, fromMs: number, toMs: number): ({ at: number; n: number } & HourSlot)[] {
      const chunk = Math.floor(portId / CHUNK_PORTS);
      const offset = (portId % CHUNK_PORTS) * SLOT_BYTES;
      const out: ({ at: number; n: number } & HourSlot)[] = [];
      for (let h = hourOf(fromMs); h <= hourOf(toMs); h++) {
        const r = slot.get(offset + 1, SLOT_BYTES, h * CHUNK_SPAN + chunk) as { n: number; s: Buffer } | undefined;
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
      return db.prepare('DELETE FROM traffic_hourly WHERE id < ?').run(hourOf(before) * CHUNK_SPAN).changes;
    },
  };
}
export type TrafficRepo = ReturnType<typeof createTrafficRepo>;
