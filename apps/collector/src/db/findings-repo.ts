import {
  resolveClears,
  worseSeverity,
  type FindingEvent,
  type FindingRow,
  type FindingState,
  type Severity,
} from '@ibwatch/fabric';
import type { Db } from './open-db.ts';
import { SUBJECT_IS_PORT } from './fabric-queries.ts';

interface FindingDbRow {
  id: number;
  kind: string;
  severity: string;
  peak_severity: string;
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
  cleared_at: number | null;
}

export interface StoredFinding extends FindingRow {
  subject: Record<string, unknown>;
  short: string | null;
}

/** What a scan needs of a finding to sync its verdicts (no JSON columns). */
export interface FindingKey {
  id: number;
  kind: string;
  subjectKey: string;
  state: FindingState;
  severity: Severity;
  lastSeen: number;
  clearedAt: number | null;
}

function toRow(r: FindingDbRow): StoredFinding {
  return {
    id: r.id,
    kind: r.kind,
    severity: r.severity as Severity,
    // A row written without its peak (an older writer) still never reads below its severity.
    peakSeverity: worseSeverity(r.peak_severity as Severity, r.severity as Severity),
    state: r.state as FindingState,
    subjectType: r.subject_type as FindingRow['subjectType'],
    subjectKey: r.subject_key,
    subject: JSON.parse(r.subject) as Record<string, unknown>,
    title: r.title,
    short: r.short,
    evidence: JSON.parse(r.evidence) as Record<string, unknown>,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
    clearedAt: r.cleared_at,
    resolvedAt: r.resolved_at,
    acknowledgedBy: r.acknowledged_by,
  };
}

/** The API shape of a stored finding (internal fields dropped). */
export function toFindingRow({ subject: _s, short: _sh, ...row }: StoredFinding): FindingRow {
  return row;
}

/**
 * SQL condition on `findings` for a `state` filter of the API: a lifecycle state, `active`
 * (open or acknowledged), `current` (observed by the latest scan of its kind, whatever the
 * lifecycle) or `cleared` (active, no longer observed).
 */
const STATE_FILTER = `(@state IS NULL OR state = @state OR (@state = 'active' AND state != 'resolved')
  OR (@state = 'current' AND cleared_at IS NULL)
  OR (@state = 'cleared' AND state != 'resolved' AND cleared_at IS NOT NULL))`;

/** A severity's rank in SQL, higher is worse (as SEVERITY_RANK). */
const RANK = (x: string) => `CASE ${x} WHEN 'critical' THEN 4 WHEN 'major' THEN 3 WHEN 'minor' THEN 2 ELSE 1 END`;

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
 * Findings: opened by a rule's verdict, refreshed while it repeats, cleared by the first scan
 * of their kind that no longer sees the condition, resolved after a clean period (or by hand).
 * Every change of state is also written to the finding's history (`finding_events`).
 */
export function createFindingsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO findings (kind, severity, peak_severity, state, subject_type, subject_key, subject, title, short,
    evidence, first_seen, last_seen)
     VALUES (@kind, @severity, @severity, 'open', @subjectType, @subjectKey, @subject, @title, @short, @evidence, @at,
     @at)`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO finding_events (finding_id, at, event, actor, note) VALUES (@id, @at, @event, @by, @note)',
  );
  const record = (id: number, at: number, event: string, by: string | null = null, note: string | null = null) =>
    insertEvent.run({ id, at, event, by, note });
  // The change and its history entry commit together (a savepoint inside a scan's transaction).
  // An nccl-tests finding is about one run, an event (a flap, a failover) about one moment: no
  // later scan observes either again, so nothing would clear it, and a resolved one would count
  // as current ("Findings now", "Broken now") until its window ends. Resolving it clears it
  // (resolveClears); a finding a scan re-observes stays current until that scan clears it.
  const kindOf = db.prepare('SELECT kind FROM findings WHERE id = ?').pluck();
  const resolveTx = db.transaction((id: number, at: number, by: string | null, note: string | null): boolean => {
    const kind = kindOf.get(id) as string | undefined;
    if (kind === undefined) return false;
    const changed =
      db
        .prepare(
          `UPDATE findings SET state = 'resolved', resolved_at = @at,
             cleared_at = CASE WHEN @clears THEN COALESCE(cleared_at, @at) ELSE cleared_at END
           WHERE id = @id AND state != 'resolved'`,
        )
        .run({ at, id, clears: resolveClears(kind) ? 1 : 0 }).changes > 0;
    if (changed) record(id, at, by === null ? 'auto-resolved' : 'resolved', by, note);
    return changed;
  });
  const acknowledgeTx = db.transaction((id: number, by: string, at: number, note: string | null): boolean => {
    const changed =
      db
        .prepare(
          "UPDATE findings SET state = 'acknowledged', acknowledged_by = ?, acknowledged_at = ? WHERE id = ? " +
            "AND state = 'open'",
        )
        .run(by, at, id).changes > 0;
    if (changed) record(id, at, 'acknowledged', by, note);
    return changed;
  });
  const touch = db.prepare(
    `UPDATE findings SET severity = @severity, title = @title, short = @short, evidence = @evidence, last_seen = @at,
       cleared_at = NULL, peak_severity = CASE WHEN ${RANK('@severity')} > ${RANK('peak_severity')} THEN @severity
       ELSE peak_severity END WHERE id = @id`,
  );
  const markCleared = db.prepare(
    'UPDATE findings SET cleared_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND cleared_at IS NULL',
  );
  const recordCleared = db.prepare(
    `INSERT INTO finding_events (finding_id, at, event)
     SELECT id, ?, ? FROM findings WHERE id IN (SELECT value FROM json_each(?)) AND cleared_at IS NULL`,
  );
  // Two parts so each can use an index: the active findings, and the few resolved by hand while
  // their condition was still observed (current until a scan of their kind clears them).
  const liveKeys = db.prepare(
    `SELECT id, kind, subject_key AS subjectKey, state, severity, last_seen AS lastSeen, cleared_at AS clearedAt
     FROM findings WHERE state != 'resolved'
     UNION ALL
     SELECT id, kind, subject_key, state, severity, last_seen, cleared_at FROM findings
     WHERE cleared_at IS NULL AND state = 'resolved'`,
  );
  return {
    /**
     * What a sweep needs of the findings it may change to sync its verdicts: the active ones and
     * the resolved ones still current. No subject or evidence (parsing every active finding's
     * JSON on every sweep was a third of storing a sweep).
     */
    liveKeys(): FindingKey[] {
      return liveKeys.all() as FindingKey[];
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
    /**
     * Cleared at `at`: the latest scan of their kind no longer saw them (one statement for all);
     * `event` names the step in their history (`window-ended` for an event whose window passed).
     */
    markCleared(ids: readonly number[], at: number, event = 'cleared'): void {
      if (!ids.length) return;
      const json = JSON.stringify(ids);
      recordCleared.run(at, event, json);
      markCleared.run(at, json);
    },
    /**
     * Resolves an active finding: `by` someone through the API (the token's name, with the
     * reason in `note`), else by the collector once it stayed cleared long enough ('auto-resolved').
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
    /**
     * Findings worst first. `kind` is a kind or a family of them: `link-degraded` matches
     * `link-degraded-width` and `-speed`, `counter-rate` every `counter-rate:<counter>`, but
     * `link-down` not `link-downed`.
     */
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
          `SELECT * FROM findings WHERE ${STATE_FILTER}
             AND (@severity IS NULL OR severity = @severity)
             AND (@kind IS NULL OR kind = @kind OR substr(kind, 1, length(@kind) + 1) IN (@kind || '-', @kind || ':'))
             AND (@prefix IS NULL OR subject_key LIKE @prefix || '%') AND (@since IS NULL OR last_seen >= @since)
           ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'major' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END,
           last_seen DESC LIMIT @limit`,
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
           ORDER BY CASE severity WHEN 'critical' THEN 0 WHEN 'major' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END,
           last_seen DESC LIMIT @limit`,
        )
        .all({ key: `${guid}/${port}`, limit }) as FindingDbRow[];
      return rows.map(toRow);
    },
    /** Findings that were open at any time in [from, to] (for nccl run correlation). */
    openDuring(from: number, to: number, subjectTypes: string[]): StoredFinding[] {
      const rows = db
        .prepare(
          `SELECT * FROM findings WHERE first_seen <= ? AND (resolved_at IS NULL OR resolved_at >= ?) ORDER BY
          first_seen`,
        )
        .all(to, from) as FindingDbRow[];
      return rows.map(toRow).filter((f) => subjectTypes.includes(f.subjectType));
    },
    /** Findings observed by the latest scan of their kind, by severity. */
    countCurrentBySeverity(): Record<Severity, number> {
      const out: Record<Severity, number> = { critical: 0, major: 0, minor: 0, info: 0 };
      for (const r of db
        .prepare('SELECT severity, COUNT(*) AS n FROM findings WHERE cleared_at IS NULL GROUP BY severity')
        .all() as {
        severity: Severity;
        n: number;
      }[])
        out[r.severity] = r.n;
      return out;
    },
    /** Open or acknowledged findings no longer observed (cleared, resolving after the clean period). */
    countCleared(): number {
      return db
        .prepare("SELECT COUNT(*) FROM findings WHERE state != 'resolved' AND cleared_at IS NOT NULL")
        .pluck()
        .get() as number;
    },
  };
}
export type FindingsRepo = ReturnType<typeof createFindingsRepo>;
