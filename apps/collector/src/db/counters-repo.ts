import type { Db } from './open-db.ts';

const HOUR_MS = 3_600_000;

/**
 * Counter storage. The last raw values of every port are the baseline for the next sweep's
 * deltas; deltas are stored sparsely (only non-zero error-counter deltas) per sweep for a few
 * days, and summed into hourly rollups kept for a year.
 */
export function createCountersRepo(db: Db) {
  const nameIds = new Map<string, number>();
  const keyJson = new Map<string, string>();
  const zeroJson = new Map<string, string>();
  for (const r of db.prepare('SELECT id, name FROM counter_names').all() as { id: number; name: string }[]) nameIds.set(r.name, r.id);
  const insertName = db.prepare('INSERT INTO counter_names (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING id');
  const upsertLast = db.prepare(
    `INSERT INTO counter_last (port_id, at, scan_id, vals) VALUES (?, ?, ?, ?)
     ON CONFLICT (port_id) DO UPDATE SET at = excluded.at, scan_id = excluded.scan_id, vals = excluded.vals`,
  );
  const insertDelta = db.prepare('INSERT INTO counter_deltas (port_id, counter_id, at, interval_s, delta, scan_id) VALUES (?, ?, ?, ?, ?, ?)');
  const upsertRollup = db.prepare(
    `INSERT INTO counter_rollups (port_id, counter_id, hour, delta) VALUES (?, ?, ?, ?)
     ON CONFLICT (port_id, counter_id, hour) DO UPDATE SET delta = delta + excluded.delta`,
  );

  function counterId(name: string): number {
    let id = nameIds.get(name);
    if (id === undefined) {
      id = (insertName.get(name) as { id: number }).id;
      nameIds.set(name, id);
    }
    return id;
  }

  return {
    counterId,
    /** Every port's last values, as stored (decimal strings) — the baseline after a restart. */
    loadLast(): Map<number, { at: number; scanId: number; vals: Record<string, string> }> {
      const out = new Map<number, { at: number; scanId: number; vals: Record<string, string> }>();
      for (const r of db.prepare('SELECT port_id, at, scan_id, vals FROM counter_last').iterate() as Iterable<{
        port_id: number; at: number; scan_id: number; vals: string;
      }>) out.set(r.port_id, { at: r.at, scanId: r.scan_id, vals: JSON.parse(r.vals) as Record<string, string> });
      return out;
    },
    storeLast(portId: number, at: number, scanId: number, vals: Record<string, bigint>): void {
      // The same JSON as JSON.stringify of decimal strings, built directly: it runs for every
      // port of every sweep (60k x 20-50 counters), and most error counters are 0, so a zero
      // is one cached `,"name":"0"` piece (half the time of building it per key).
      let json = '';
      for (const k in vals) {
        const v = vals[k]!;
        if (v === 0n) {
          let z = zeroJson.get(k);
          if (z === undefined) zeroJson.set(k, (z = `,${JSON.stringify(k)}:"0"`));
          json += z;
        } else {
          let kj = keyJson.get(k);
          if (kj === undefined) keyJson.set(k, (kj = `,${JSON.stringify(k)}:"`));
          json += kj + v.toString() + '"';
        }
      }
      upsertLast.run(portId, at, scanId, json === '' ? '{}' : `{${json.slice(1)}}`);
    },
    /** Stores one non-zero delta and adds it to the hour's rollup. */
    addDelta(portId: number, counter: string, at: number, intervalS: number, delta: bigint, scanId: number): void {
      const id = counterId(counter);
      insertDelta.run(portId, id, at, intervalS, delta, scanId);
      upsertRollup.run(portId, id, Math.floor(at / HOUR_MS) * HOUR_MS, delta);
    },
    /** Per-sweep deltas of one port in [from, to]. */
    deltas(portId: number, from: number, to: number): { at: number; counter: string; delta: number; intervalS: number }[] {
      return db
        .prepare(
          `SELECT d.at, n.name AS counter, d.delta, d.interval_s AS intervalS FROM counter_deltas d
           JOIN counter_names n ON n.id = d.counter_id WHERE d.port_id = ? AND d.at >= ? AND d.at <= ? ORDER BY d.at`,
        )
        .all(portId, from, to) as { at: number; counter: string; delta: number; intervalS: number }[];
    },
    /** Hourly sums of one port in [from, to]. */
    rollups(portId: number, from: number, to: number): { at: number; counter: string; delta: number }[] {
      return db
        .prepare(
          `SELECT r.hour AS at, n.name AS counter, r.delta FROM counter_rollups r JOIN counter_names n ON n.id = r.counter_id
           WHERE r.port_id = ? AND r.hour >= ? AND r.hour <= ? ORDER BY r.hour`,
        )
        .all(portId, Math.floor(from / HOUR_MS) * HOUR_MS, to) as { at: number; counter: string; delta: number }[];
    },
    /** Ports with any stored delta since `since` (for "ports over threshold"). */
    portsWithDeltasSince(since: number): number[] {
      return db.prepare('SELECT DISTINCT port_id FROM counter_deltas WHERE at >= ?').pluck().all(since) as number[];
    },
    prune(now: number, rawDays: number, rollupDays: number): { deltas: number; rollups: number } {
      const deltas = db.prepare('DELETE FROM counter_deltas WHERE at < ?').run(now - rawDays * 86_400_000).changes;
      const rollups = db.prepare('DELETE FROM counter_rollups WHERE hour < ?').run(now - rollupDays * 86_400_000).changes;
      return { deltas, rollups };
    },
  };
}
export type CountersRepo = ReturnType<typeof createCountersRepo>;
