import { ABSENT, cellValue, type CounterColumn } from '@ibwatch/fabric';
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
  for (const r of db.prepare('SELECT id, name FROM counter_names').all() as { id: number; name: string }[]) nameIds.set(r.name, r.id);
  const insertName = db.prepare('INSERT INTO counter_names (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING id');
  const upsertLast = db.prepare(
    `INSERT INTO counter_last (port_id, at, scan_id, vals) VALUES (?, ?, ?, ?)
     ON CONFLICT (port_id) DO UPDATE SET at = excluded.at, scan_id = excluded.scan_id, vals = excluded.vals`,
  );
  const upsertBaseline = db.prepare(
    'INSERT INTO counter_baseline (id, at, scan_id) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at, scan_id = excluded.scan_id',
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
    /**
     * Every port's stored baseline row (values as a JSON object of decimal strings), streamed:
     * at 60k ports, collecting them in a map first doubled the start-up memory peak.
     */
    *iterateLast(): Generator<{ portId: number; at: number; vals: string }> {
      for (const r of db.prepare('SELECT port_id AS portId, at, vals FROM counter_last').iterate() as Iterable<{ portId: number; at: number; vals: string }>) yield r;
    },
    /**
     * One port's stored baseline: the cells of `row` in `columns` as a JSON object of decimal
     * strings (bigint-safe), absent cells left out.
     */
    storeLastRow(portId: number, at: number, scanId: number, columns: readonly CounterColumn[], row: number): void {
      let json = '';
      for (const c of columns) {
        const hi = c.hi[row]!;
        const lo = c.lo[row]!;
        if (hi === ABSENT && lo === ABSENT) continue;
        let kj = keyJson.get(c.name);
        if (kj === undefined) keyJson.set(c.name, (kj = `,${JSON.stringify(c.name)}:"`));
        // Below 2^32 (nearly every error counter) the low half is the value: no bigint.
        json += kj + (hi === 0 ? String(lo) : cellValue(c, row)!.toString()) + '"';
      }
      upsertLast.run(portId, at, scanId, json === '' ? '{}' : `{${json.slice(1)}}`);
    },
    /** The sweep the stored baseline is as of (rows of unchanged ports keep their own older time). */
    storeBaselineTime(at: number, scanId: number): void {
      upsertBaseline.run(at, scanId);
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
