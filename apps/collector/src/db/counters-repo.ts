import { cellValue, type CounterColumn } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { BatchInsert } from './batch-insert.ts';

const HOUR_MS = 3_600_000;

/**
 * Counter storage. The last raw values of every port are the baseline for the next sweep's
 * deltas; deltas are stored sparsely (only non-zero error-counter deltas) per sweep for a few
 * days, and summed into hourly rollups kept for a year.
 */
/** Decimal text of the small values nearly every error counter holds: no new string per cell. */
const SMALL_TEXT = Array.from({ length: 1024 }, (_, i) => String(i));
/** One row's cells (reused): `join` makes one flat string where `+=` made a rope SQLite then flattened. */
const cells: string[] = [];

/** The `vals` of a `counter_last` row: `row`'s cells in `columns`, see `storeLastRows`. */
function lastVals(columns: readonly CounterColumn[], row: number): string {
  // ~5M cells at a 45k-GPU fabric's first import, most of them 0: this was most of its ~1 s.
  cells.length = columns.length;
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k]!;
    if (c.absent?.[row] === 1) {
      cells[k] = '';
      continue;
    }
    const hi = c.hi[row]!;
    const lo = c.lo[row]!;
    // Below 2^32 (nearly every error counter) the low half is the value: no bigint.
    cells[k] = hi === 0 ? (lo < SMALL_TEXT.length ? SMALL_TEXT[lo]! : String(lo)) : cellValue(c, row)!.toString();
  }
  return cells.join(',');
}

/**
 * A delta's interval as stored (migration 0020): whole milliseconds, a 3-byte integer where the
 * seconds took an 8-byte REAL. Every sweep's interval is a difference of two millisecond times,
 * so `ms / 1000` (what readers compute, `interval_ms / 1000.0`) is the same double; an interval
 * that is not a whole number of milliseconds is kept as a REAL of milliseconds.
 */
export function intervalMs(intervalS: number): number {
  const ms = Math.round(intervalS * 1000);
  return ms / 1000 === intervalS ? ms : intervalS * 1000;
}

/** A `counter_last` row as `iterateLast` gives it. */
export interface StoredLast {
  nodeGuid: string;
  portNum: number;
  at: number;
  vals: string;
  /** Counter names of the values in `vals`; undefined for a row stored as a JSON object. */
  layout: readonly string[] | undefined;
}

/** A stored row's values by counter name (decimal strings), whichever way it was stored. */
export function lastValues(vals: string, layout: readonly string[] | undefined): Record<string, string> {
  if (layout === undefined) return JSON.parse(vals) as Record<string, string>;
  const out: Record<string, string> = {};
  vals.split(',').forEach((v, k) => {
    if (v !== '' && layout[k] !== undefined) out[layout[k]] = v;
  });
  return out;
}

export function createCountersRepo(db: Db) {
  const nameIds = new Map<string, number>();
  for (const r of db.prepare('SELECT id, name FROM counter_names').all() as { id: number; name: string }[])
    nameIds.set(r.name, r.id);
  const insertName = db.prepare(
    'INSERT INTO counter_names (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING id',
  );
  const upsertLayout = db.prepare(
    'INSERT INTO counter_layouts (names) VALUES (?) ON CONFLICT (names) DO UPDATE SET names = names RETURNING id',
  );
  const upsertBaseline = db.prepare(
    'INSERT INTO counter_baseline (id, at, scan_id) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at = ' +
      'excluded.at, scan_id = excluded.scan_id',
  );
  const insertDelta = db.prepare(
    'INSERT INTO counter_deltas (port_id, counter_id, at, interval_ms, delta, scan_id) VALUES (?, ?, ?, ?, ?, ?) ' +
      // One row per port, counter and time (migration 0017): a port listed twice in a sweep adds up.
      'ON CONFLICT (at, port_id, counter_id) DO UPDATE SET delta = delta + excluded.delta',
  );
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
     * Every port's stored baseline row with the port's GUID and number, streamed (at 60k ports,
     * collecting them in a map first doubled the start-up memory peak). `vals` holds the values
     * in `layout`'s order (see `lastValues`), or a JSON object for rows older than layouts.
     */
    *iterateLast(): Generator<StoredLast> {
      const layouts = new Map<number, readonly string[]>();
      for (const l of db.prepare('SELECT id, names FROM counter_layouts').all() as { id: number; names: string }[]) {
        layouts.set(l.id, JSON.parse(l.names) as string[]);
      }
      const rows = db.prepare(
        `SELECT p.node_guid AS nodeGuid, p.port_num AS portNum, c.at, c.vals, c.layout_id AS layoutId
         FROM counter_last c JOIN ports p ON p.id = c.port_id`,
      );
      for (const r of rows.iterate() as Iterable<{
        nodeGuid: string;
        portNum: number;
        at: number;
        vals: string;
        layoutId: number | null;
      }>) {
        yield {
          nodeGuid: r.nodeGuid,
          portNum: r.portNum,
          at: r.at,
          vals: r.vals,
          layout: r.layoutId === null ? undefined : layouts.get(r.layoutId),
        };
      }
    },
    /**
     * Ports' stored baselines: for each `portIds[k]`, the cells of table row `rows[k]` in
     * `columns` as decimal strings (exact to 2^64), comma-separated in the columns' order, empty
     * for absent cells; the column names are stored once, as the rows' layout. Written in
     * batches: the first sweep or import of a 10k-GPU fabric writes all 63k.
     */
    storeLastRows(
      at: number,
      scanId: number,
      columns: readonly CounterColumn[],
      portIds: readonly number[],
      rows: readonly number[],
    ): void {
      if (portIds.length === 0) return;
      const layoutId = (upsertLayout.get(JSON.stringify(columns.map((c) => c.name))) as { id: number }).id;
      const out = new BatchInsert(
        db,
        'INSERT INTO counter_last (port_id, at, scan_id, vals, layout_id)',
        5,
        'ON CONFLICT (port_id) DO UPDATE SET at = excluded.at, scan_id = excluded.scan_id, vals = ' +
          'excluded.vals, layout_id = excluded.layout_id',
      );
      for (let k = 0; k < portIds.length; k++) out.add(portIds[k]!, at, scanId, lastVals(columns, rows[k]!), layoutId);
      out.flush();
    },
    /** The sweep the stored baseline is as of (rows of unchanged ports keep their own older time). */
    storeBaselineTime(at: number, scanId: number): void {
      upsertBaseline.run(at, scanId);
    },
    /** Stores one non-zero delta and adds it to the hour's rollup. */
    addDelta(portId: number, counter: string, at: number, intervalS: number, delta: bigint, scanId: number): void {
      const id = counterId(counter);
      insertDelta.run(portId, id, at, intervalMs(intervalS), delta, scanId);
      upsertRollup.run(portId, id, Math.floor(at / HOUR_MS) * HOUR_MS, delta);
    },
    /** Per-sweep deltas of one port in [from, to]. */
    deltas(
      portId: number,
      from: number,
      to: number,
    ): { at: number; counter: string; delta: number; intervalS: number }[] {
      return db
        .prepare(
          `SELECT d.at, n.name AS counter, d.delta, d.interval_ms / 1000.0 AS intervalS FROM counter_deltas d
           JOIN counter_names n ON n.id = d.counter_id WHERE d.port_id = ? AND d.at >= ? AND d.at <= ? ORDER BY d.at`,
        )
        .all(portId, from, to) as { at: number; counter: string; delta: number; intervalS: number }[];
    },
    /** Hourly sums of one port in [from, to]. */
    rollups(portId: number, from: number, to: number): { at: number; counter: string; delta: number }[] {
      return db
        .prepare(
          `SELECT r.hour AS at, n.name AS counter, r.delta FROM counter_rollups r JOIN counter_names n ON n.id
          = r.counter_id
           WHERE r.port_id = ? AND r.hour >= ? AND r.hour <= ? ORDER BY r.hour`,
        )
        .all(portId, Math.floor(from / HOUR_MS) * HOUR_MS, to) as { at: number; counter: string; delta: number }[];
    },
    /** Ports with any stored delta since `since` (for "ports over threshold"). */
    portsWithDeltasSince(since: number): number[] {
      // `+port_id`: read the time range of the table (keyed by time), not all of the port index.
      return db.prepare('SELECT DISTINCT +port_id FROM counter_deltas WHERE at >= ?').pluck().all(since) as number[];
    },
    prune(now: number, rawDays: number, rollupDays: number): { deltas: number; rollups: number } {
      const deltas = db.prepare('DELETE FROM counter_deltas WHERE at < ?').run(now - rawDays * 86_400_000).changes;
      const rollups = db
        .prepare('DELETE FROM counter_rollups WHERE hour < ?')
        .run(now - rollupDays * 86_400_000).changes;
      return { deltas, rollups };
    },
  };
}
export type CountersRepo = ReturnType<typeof createCountersRepo>;

/** The sweep the stored baseline (`counter_last`) is as of, when one was recorded. */
export function baselineAt(db: Db): number | undefined {
  return db.prepare('SELECT at FROM counter_baseline WHERE id = 1').pluck().get() as number | undefined;
}

/** LinkDownedCounter increases stored after `since`, with their port (flaps, see pm-store.ts). */
export function linkDownedSince(
  db: Db,
  since: number,
): { at: number; delta: number; id: number; g: string; n: number }[] {
  return db
    .prepare(
      `SELECT d.at, d.delta, d.port_id AS id, p.node_guid AS g, p.port_num AS n FROM counter_deltas d
       JOIN ports p ON p.id = d.port_id
       JOIN counter_names c ON c.id = d.counter_id WHERE c.name = 'LinkDownedCounter' AND d.at > ?`,
    )
    .all(since) as { at: number; delta: number; id: number; g: string; n: number }[];
}

/**
 * The wall-clock time the stored baseline's scan finished (links first seen after it are new
 * since that snapshot), and whether that scan computed rates (it had a baseline of its own to
 * compare with: `intervalS` of a PM sweep, `pm.intervalS` of an ibdiagnet run). Undefined
 * before the first counter snapshot.
 */
export function baselineScan(db: Db): { finishedAt: number | null; rated: boolean } | undefined {
  const row = db
    .prepare(
      'SELECT s.finished_at AS finishedAt, s.summary FROM counter_baseline b ' +
        'LEFT JOIN scans s ON s.id = b.scan_id WHERE b.id = 1',
    )
    .get() as { finishedAt: number | null; summary: string | null } | undefined;
  if (!row) return undefined;
  let s: Record<string, unknown> = {};
  try {
    s = JSON.parse(row.summary ?? '{}') as Record<string, unknown>;
  } catch {
    // an unreadable summary says nothing about rates
  }
  const interval = Number(s.intervalS ?? s['pm.intervalS'] ?? 0);
  return { finishedAt: row.finishedAt ?? null, rated: interval > 0 };
}
