import type { ScanKind, ScanRow, ScanStatus } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { ownerGone, thisProcess } from './scan-owner.ts';

interface ScanDbRow {
  id: number;
  kind: string;
  trigger: string;
  status: string;
  started_at: number;
  finished_at: number | null;
  duration_ms: number | null;
  error: string | null;
  warnings: string;
  tool_versions: string;
  summary: string;
}

function toScanRow(r: ScanDbRow): ScanRow {
  return {
    id: r.id,
    kind: r.kind as ScanKind,
    trigger: r.trigger as ScanRow['trigger'],
    status: r.status as ScanStatus,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
    error: r.error,
    warnings: JSON.parse(r.warnings) as string[],
    toolVersions: JSON.parse(r.tool_versions) as Record<string, string>,
    summary: JSON.parse(r.summary) as Record<string, number | string>,
  };
}

export interface ScanOutcome {
  status: Exclude<ScanStatus, 'running'>;
  error?: string | null;
  warnings?: string[];
  toolVersions?: Record<string, string>;
  summary?: Record<string, number | string>;
}

export function createScansRepo(db: Db) {
  const insert = db.prepare('INSERT INTO scans (kind, trigger, status, started_at, owner) VALUES (?, ?, ?, ?, ?)');
  const finish = db.prepare(
    `UPDATE scans SET status = @status, finished_at = @finishedAt, duration_ms = @finishedAt - started_at,
       error = @error, warnings = @warnings, tool_versions = @toolVersions, summary = @summary WHERE id = @id`,
  );
  const byId = db.prepare('SELECT * FROM scans WHERE id = ?');
  return {
    start(kind: ScanKind, trigger: ScanRow['trigger'], at: number): number {
      return Number(insert.run(kind, trigger, 'running', at, thisProcess()).lastInsertRowid);
    },
    finish(id: number, at: number, o: ScanOutcome): void {
      finish.run({
        id,
        status: o.status,
        finishedAt: at,
        error: o.error ?? null,
        warnings: JSON.stringify((o.warnings ?? []).slice(0, 200)),
        toolVersions: JSON.stringify(o.toolVersions ?? {}),
        summary: JSON.stringify(o.summary ?? {}),
      });
    },
    get(id: number): ScanRow | null {
      const r = byId.get(id) as ScanDbRow | undefined;
      return r ? toScanRow(r) : null;
    },
    /** Scans and imports that completed (ok or partial): /api/ready waits for the first. */
    completedCount(): number {
      return db.prepare("SELECT COUNT(*) FROM scans WHERE status IN ('ok','partial')").pluck().get() as number;
    },
    list(opts: { limit: number; kind?: string; status?: string }): ScanRow[] {
      const rows = db
        .prepare(
          `SELECT * FROM scans WHERE (@kind IS NULL OR kind = @kind) AND (@status IS NULL OR status = @status)
           ORDER BY id DESC LIMIT @limit`,
        )
        .all({ kind: opts.kind ?? null, status: opts.status ?? null, limit: opts.limit }) as ScanDbRow[];
      return rows.map(toScanRow);
    },
    /**
     * Each kind with a completed (ok or partial) scan and the start of its latest. The kinds by
     * seeks on the (kind, started_at) index (a DISTINCT would read every scan row: a PM scan a
     * minute is half a million a year), then per kind newest first, stopping at its last success.
     */
    lastOkPerKind(): { kind: ScanKind; lastOkAt: number }[] {
      const kinds = db
        .prepare(
          `WITH RECURSIVE k(kind) AS (SELECT MIN(kind) FROM scans
             UNION ALL SELECT (SELECT MIN(kind) FROM scans WHERE kind > k.kind) FROM k WHERE k.kind IS NOT NULL)
           SELECT kind FROM k WHERE kind IS NOT NULL`,
        )
        .pluck()
        .all() as ScanKind[];
      const latest = db
        .prepare(
          "SELECT started_at FROM scans WHERE kind = ? AND status IN ('ok','partial') ORDER BY started_at DESC LIMIT 1",
        )
        .pluck();
      return kinds.flatMap((kind) => {
        const at = latest.get(kind) as number | undefined;
        return at === undefined ? [] : [{ kind, lastOkAt: at }];
      });
    },
    /** Latest scan of each kind (for the overview). */
    latestPerKind(): ScanRow[] {
      const rows = db
        .prepare(
          'SELECT s.* FROM scans s JOIN (SELECT kind, MAX(id) AS id FROM scans GROUP BY kind) m ON m.id = s.id ' +
            'ORDER BY s.kind',
        )
        .all() as ScanDbRow[];
      return rows.map(toScanRow);
    },
    /** Last successful scan of a kind: its finish time is the baseline for rate intervals. */
    lastOk(kind: ScanKind): ScanRow | null {
      const r = db
        .prepare("SELECT * FROM scans WHERE kind = ? AND status IN ('ok','partial') ORDER BY id DESC LIMIT 1")
        .get(kind) as ScanDbRow | undefined;
      return r ? toScanRow(r) : null;
    },
    /**
     * Scans left 'running' by a crash: their writes never committed, so they are marked failed.
     * Only those of processes that are gone: another process may be writing this file now.
     */
    failInterrupted(at: number): number {
      const running = db.prepare("SELECT id, owner FROM scans WHERE status = 'running'").all() as {
        id: number;
        owner: string | null;
      }[];
      const dead = running.filter((r) => ownerGone(r.owner)).map((r) => r.id);
      // One statement even when no scan is marked: a database that refuses writes (read-only
      // file) says so here, at start-up, where the caller reports it.
      return db
        .prepare(
          `UPDATE scans SET status = 'failed', finished_at = @at, duration_ms = @at - started_at,
             error = 'interrupted: the collector stopped during this scan; nothing it read was stored'
           WHERE status = 'running' AND id IN (SELECT value FROM json_each(@ids))`,
        )
        .run({ at, ids: JSON.stringify(dead) }).changes;
    },
    addRawOutput(scanId: number, name: string, at: number, bytes: number, gz: Buffer): void {
      db.prepare('INSERT INTO raw_outputs (scan_id, name, created_at, bytes, gz) VALUES (?, ?, ?, ?, ?)').run(
        scanId,
        name,
        at,
        bytes,
        gz,
      );
    },
    /** Whether a scan of `kind` kept raw output at or after `since`. */
    hasRawOutputSince(kind: string, since: number): boolean {
      return (
        db
          .prepare(
            'SELECT 1 FROM raw_outputs r JOIN scans s ON s.id = r.scan_id WHERE r.created_at >= ? AND s.kind = ' +
              '? LIMIT 1',
          )
          .get(since, kind) !== undefined
      );
    },
    rawOutputs(scanId: number): { name: string; bytes: number; gz: Buffer }[] {
      return db.prepare('SELECT name, bytes, gz FROM raw_outputs WHERE scan_id = ? ORDER BY id').all(scanId) as {
        name: string;
        bytes: number;
        gz: Buffer;
      }[];
    },
  };
}
export type ScansRepo = ReturnType<typeof createScansRepo>;
