import { writeTransaction, type Db } from './open-db.ts';

/** A finding the notifier announces: active (open or acknowledged) and observed by the latest scan of its kind. */
export interface AlertingFinding {
  id: number;
  kind: string;
  severity: string;
  subjectKey: string;
  subject: Record<string, unknown>;
  title: string;
  short: string | null;
  firstSeen: number;
}

/** What a target was last told about one finding (migration 0013). */
export interface NotifyStateRow {
  findingId: number;
  /** The JSON sent, parsed by the notifier. */
  notice: string;
  openedAt: number;
  sentAt: number;
}

export interface NotifyFailureRow {
  id: number;
  target: string;
  event: string;
  findingId: number | null;
  attempts: number;
  error: string;
  firstAt: number;
  lastAt: number;
  deliveredAt: number | null;
}

/** Failed deliveries kept; older rows go when a new one is recorded. */
const KEEP_FAILURES = 500;

/** The notifier's reads and writes: findings to announce, per-target state, failed deliveries. */
export function createNotifyRepo(db: Db) {
  const alerting = db.prepare(
    `SELECT id, kind, severity, subject_key AS subjectKey, subject, title, short, first_seen AS firstSeen
     FROM findings WHERE state != 'resolved' AND cleared_at IS NULL ORDER BY id`,
  );
  const description = db.prepare('SELECT description FROM nodes WHERE guid = ?').pluck();
  const remote = db.prepare(
    'SELECT remote_guid AS guid, remote_port AS port FROM ports WHERE node_guid = ? AND port_num = ?',
  );
  const states = db.prepare(
    `SELECT finding_id AS findingId, notice, opened_at AS openedAt, sent_at AS sentAt
     FROM notify_state WHERE target = ? ORDER BY finding_id`,
  );
  const upsert = db.prepare(
    `INSERT INTO notify_state (target, finding_id, notice, opened_at, sent_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (target, finding_id) DO UPDATE SET notice = excluded.notice, sent_at = excluded.sent_at`,
  );
  const drop = db.prepare('DELETE FROM notify_state WHERE target = ? AND finding_id = ?');
  const pending = db
    .prepare(
      `SELECT id FROM notify_failures WHERE target = ? AND event = ? AND finding_id IS ? AND delivered_at IS NULL`,
    )
    .pluck();
  const addAttempts = db.prepare(
    'UPDATE notify_failures SET attempts = attempts + ?, error = ?, last_at = ? WHERE id = ?',
  );
  const insertFailure = db.prepare(
    `INSERT INTO notify_failures (target, event, finding_id, attempts, error, first_at, last_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const prune = db.prepare('DELETE FROM notify_failures WHERE id <= ? - ?');
  const delivered = db.prepare(
    `UPDATE notify_failures SET delivered_at = ? WHERE target = ? AND event = ? AND finding_id IS ?
     AND delivered_at IS NULL`,
  );
  const failures = db.prepare(
    `SELECT id, target, event, finding_id AS findingId, attempts, error, first_at AS firstAt, last_at AS lastAt,
     delivered_at AS deliveredAt FROM notify_failures ORDER BY last_at DESC, id DESC LIMIT ?`,
  );
  const counts = db.prepare('SELECT COUNT(*) AS active, MAX(sent_at) AS lastSentAt FROM notify_state WHERE target = ?');
  return {
    /** How many findings `target` knows as active, and when it last took a delivery. */
    targetState(target: string): { active: number; lastSentAt: number | null } {
      return counts.get(target) as { active: number; lastSentAt: number | null };
    },
    alerting(): AlertingFinding[] {
      return (alerting.all() as (Omit<AlertingFinding, 'subject'> & { subject: string })[]).map((r) => ({
        ...r,
        subject: JSON.parse(r.subject) as Record<string, unknown>,
      }));
    },
    nodeDescription(guid: string): string | null {
      return (description.get(guid) as string | undefined) ?? null;
    },
    /** The far end of a cabled port, as the latest topology scan saw it. */
    remoteOf(guid: string, port: number): { guid: string; port: number } | null {
      const r = remote.get(guid, port) as { guid: string | null; port: number | null } | undefined;
      return r?.guid && r.port !== null ? { guid: r.guid, port: r.port } : null;
    },
    states(target: string): NotifyStateRow[] {
      return states.all(target) as NotifyStateRow[];
    },
    /** Records what was delivered to `target` about each finding, in one transaction. */
    sent(target: string, rows: { findingId: number; notice: string }[], at: number): void {
      writeTransaction(db, () => {
        for (const r of rows) upsert.run(target, r.findingId, r.notice, at, at);
      });
    },
    /** Forgets findings whose resolve `target` has received. */
    forget(target: string, findingIds: number[]): void {
      writeTransaction(db, () => {
        for (const id of findingIds) drop.run(target, id);
      });
    },
    recordFailure(
      target: string,
      event: string,
      findingId: number | null,
      attempts: number,
      error: string,
      at: number,
    ): void {
      writeTransaction(db, () => {
        const id = pending.get(target, event, findingId) as number | undefined;
        if (id !== undefined) addAttempts.run(attempts, error, at, id);
        else {
          const last = Number(insertFailure.run(target, event, findingId, attempts, error, at, at).lastInsertRowid);
          prune.run(last, KEEP_FAILURES);
        }
      });
    },
    /** A delivery that once failed went through: its failure row says when. */
    recordDelivered(target: string, event: string, findingId: number | null, at: number): void {
      delivered.run(at, target, event, findingId);
    },
    failures(limit = 100): NotifyFailureRow[] {
      return failures.all(limit) as NotifyFailureRow[];
    },
  };
}

export type NotifyRepo = ReturnType<typeof createNotifyRepo>;
