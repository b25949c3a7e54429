import type { FindingEvent, FindingRow, FindingState, Severity } from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { SUBJECT_IS_PORT } from './fabric-queries.ts';

interface FindingDbRow {
  id: number;
  kind: string;
  severity: string;
  state: string;
  subject_type: string;
  subject_key: string;
  subject: string;
  title: string;
  short: string | null;
  evidence: string;
  first_seen: number;
  last_seen: number;
  resolved_at: number | null;
  acknowledged_by: string | null;
  acknowledged_at: number | null;
  clean_sweeps: number;
}

export interface StoredFinding extends FindingRow {
  subject: Record<string, unknown>;
  short: string | null;
  cleanSweeps: number;
}

function toRow(r: FindingDbRow): StoredFinding {
  return {
    id: r.id,
    kind: r.kind,
    severity: r.severity as Severity,
    state: r.state as FindingState,
    subjectType: r.subject_type as FindingRow['subjectType'],
    subjectKey: r.subject_key,
    subject: JSON.parse(r.subject) as Record<string, unknown>,
    title: r.title,
    short: r.short,
    evidence: JSON.parse(r.evidence) as Record<string, unknown>,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
    resolvedAt: r.resolved_at,
    acknowledgedBy: r.acknowledged_by,
    cleanSweeps: r.clean_sweeps,
  };
}

/** The API shape of a stored finding (internal fields dropped). */
export function toFindingRow({ subject: _s, short: _sh, cleanSweeps: _c, ...row }: StoredFinding): FindingRow {
  return row;
}

export interface NewFinding {
  kind: string;
  severity: Severity;
  subjectType: FindingRow['subjectType'];
  subjectKey: string;
  subject: unknown;
  title: string;
  short: string | null;
  evidence: unknown;
}

/**
 * Findings: opened by a rule's verdict, updated while it repeats, resolved when clean. Every
 * change of state is also written to the finding's history (`finding_events`).
 */
export function createFindingsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO findings (kind, severity, state, subject_type, subject_key, subject, title, short, evidence, first_seen, last_seen)
     VALUES (@kind, @severity, 'open', @subjectType, @subjectKey, @subject, @title, @short, @evidence, @at, @at)`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO finding_events (finding_id, at, event, actor, note) VALUES (@id, @at, @event, @by, @note)',
  );
  const record = (id: number, at: number, event: string, by: string | null = null, note: string | null = null) =>
    insertEvent.run({ id, at, event, by, note });
  // The change and its history entry commit together (a savepoint inside a scan's transaction).
  const resolveTx = db.transaction((id: number, at: number, by: string | null, note: string | null): boolean => {
    const changed =
      db
        .prepare("UPDATE findings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state != 'resolved'")
        .run(at, id).changes > 0;
    if (changed) record(id, at, by === null ? 'auto-resolved' : 'resolved', by, note);
    return changed;
  });
  const acknowledgeTx = db.transaction((id: number, by: string, at: number, note: string | null): boolean => {
    const changed =
      db
        .prepare(
          "UPDATE findings SET state = 'acknowledged', acknowledged_by = ?, acknowledged_at = ? WHERE id = ? AND state = 'open'",
        )
        .run(by, at, id).changes > 0;
    if (changed) record(id, at, 'acknowledged', by, note);
    return changed;
  });
  const touch = db.prepare(
    `UPDATE findings SET severity = @severity, title = @title, short = @short, evidence = @evidence, last_seen = @at, clean_sweeps = 0 WHERE id = @id`,
  );
  const markClean = db.prepare(
    'UPDATE findings SET clean_sweeps = clean_sweeps + 1 WHERE id IN (SELECT value FROM json_each(?))',
  );
  const activeKeys = db.prepare(
    "SELECT id, kind, subject_key AS subjectKey, clean_sweeps AS cleanSweeps FROM findings WHERE state != 'resolved'",
  );
  return {
    /**
     * What a sweep needs of the active findings to sync its verdicts: no subject or evidence
     * (parsing every active finding's JSON on every sweep was a third of storing a sweep).
     */
    activeKeys(): { id: number; kind: string; subjectKey: string; cleanSweeps: number }[] {
      return activeKeys.all() as { id: number; kind: string; subjectKey: string; cleanSweeps: number }[];
    },
    /** Open and acknowledged findings of the given kinds (all kinds when omitted). */
    active(kinds?: readonly string[]): StoredFinding[] {
      const rows = db.prepare("SELECT * FROM findings WHERE state != 'resolved'").all() as FindingDbRow[];
      const all = rows.map(toRow);
      return kinds ? all.filter((f) => kinds.includes(f.kind)) : all;
    },
    open(f: NewFinding, at: number): number {
      const id = Number(
        insert.run({ ...f, subject: JSON.stringify(f.subject), evidence: JSON.stringify(f.evidence), at })
          .lastInsertRowid,
      );
      record(id, at, 'opened');
      return id;
    },
    touch(id: number, f: Pick<NewFinding, 'severity' | 'title' | 'short' | 'evidence'>, at: number): void {
      touch.run({ id, severity: f.severity, title: f.title, short: f.short, evidence: JSON.stringify(f.evidence), at });
    },
    /** One more clean sweep for each of these findings (one statement: a sweep may pass over a thousand). */
    markClean(ids: readonly number[]): void {
      if (ids.length) markClean.run(JSON.stringify(ids));
    },
    /**
     * Resolves an active finding: `by` someone through the API (the token's name, with the
     * reason in `note`), else by the collector's clean-sweep rule ('auto-resolved').
     */
    resolve(id: number, at: number, by: string | null = null, note: string | null = null): boolean {
      return resolveTx(id, at, by, note);
    },
    acknowledge(id: number, by: string, at: number, note: string | null = null): boolean {
      return acknowledgeTx(id, by, at, note);
    },
    /** Adds a step to a finding's history (a lifecycle step its caller tracks; `by` null = the collector). */
    addEvent(id: number, at: number, event: string, by: string | null = null, note: string | null = null): void {
      record(id, at, event, by, note);
    },
    /** A finding's history, oldest first. */
    history(id: number): FindingEvent[] {
      return db
        .prepare('SELECT at, event, actor AS "by", note FROM finding_events WHERE finding_id = ? ORDER BY at, id')
        .all(id) as FindingEvent[];
    },
    get(id: number): StoredFinding | null {
      const r = db.prepare('SELECT * FROM findings WHERE id = ?').get(id) as FindingDbRow | undefined;
      return r ? toRow(r) : null;
    },
    list(q: {
      state?: string;
      severity?: string;
      kind?: string;
      subjectKeyPrefix?: string;
      limit: number;
      since?: number;
    }): StoredFinding[] {
      const rows = db
        .prepare(
          `SELECT * FROM findings WHERE (@state IS NULL OR state = @state OR (@state = 'active' AND state != 'resolved'))
             AND (@severity IS NULL OR severity = @severity) AND (@kind IS NULL OR kind = @kind)
             AND (@prefix IS NULL OR subject_key LIKE @prefix || '%') AND (@since IS NULL OR last_seen >= @since)
           ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'major' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END, last_seen DESC LIMIT @limit`,
        )
        .all({
          state: q.state ?? null,
          severity: q.severity ?? null,
          kind: q.kind ?? null,
          prefix: q.subjectKeyPrefix ?? null,
          limit: q.limit,
          since: q.since ?? null,
        }) as FindingDbRow[];
      return rows.map(toRow);
    },
    /** Findings about one port, or a link it is an end of, worst and newest first. */
    forPort(guid: string, port: number, limit: number): StoredFinding[] {
      const rows = db
        .prepare(
          `SELECT * FROM findings f WHERE ${SUBJECT_IS_PORT('@key')}
           ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'major' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END, last_seen DESC LIMIT @limit`,
        )
        .all({ key: `${guid}/${port}`, limit }) as FindingDbRow[];
      return rows.map(toRow);
    },
    /** Findings that were open at any time in [from, to] (for nccl run correlation). */
    openDuring(from: number, to: number, subjectTypes: string[]): StoredFinding[] {
      const rows = db
        .prepare(
          `SELECT * FROM findings WHERE first_seen <= ? AND (resolved_at IS NULL OR resolved_at >= ?) ORDER BY first_seen`,
        )
        .all(to, from) as FindingDbRow[];
      return rows.map(toRow).filter((f) => subjectTypes.includes(f.subjectType));
    },
    countOpenBySeverity(): Record<Severity, number> {
      const out: Record<Severity, number> = { critical: 0, major: 0, minor: 0, info: 0 };
      for (const r of db
        .prepare("SELECT severity, COUNT(*) AS n FROM findings WHERE state != 'resolved' GROUP BY severity")
        .all() as {
        severity: Severity;
        n: number;
      }[])
        out[r.severity] = r.n;
      return out;
    },
  };
}
export type FindingsRepo = ReturnType<typeof createFindingsRepo>;
