import { EVENT_END_WORDS, formatAge, type BrokenRow, type FixedRow, type RecentEventRow } from '@ibwatch/fabric';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { severityLook } from '../../lib/status.ts';
import { href } from '../../router.ts';
import { brokenRowHref } from './overview.ts';

/**
 * What is broken now, worst first: one row per cable, SM problem or stale scan kind, with how
 * long, why in plain words, and where to act. Only the first `limit` rows; the rest are a link.
 */
export function BrokenNow({
  rows,
  now,
  limit,
  unjudged,
}: {
  rows: BrokenRow[];
  now: number;
  limit: number;
  /** What the empty list could not judge (error rates before a second counter snapshot). */
  unjudged?: string;
}) {
  const shown = rows.slice(0, limit);
  return (
    <section className="card broken-now" aria-labelledby="ov-broken" data-testid="broken-now">
      <h2 id="ov-broken">
        Broken now{rows.length > 0 && <span className="count"> ({rows.length.toLocaleString()})</span>}
      </h2>
      {rows.length === 0 ? (
        <p className="all-clear" data-testid="broken-empty">
          <span aria-hidden="true">●</span> Nothing is broken now.
          {unjudged && <span className="muted small"> {unjudged}</span>}
        </p>
      ) : (
        <ol className="broken-list">
          {shown.map((r) => (
            <li
              key={`${r.kind}:${r.key}`}
              className={`broken-row tone-${severityLook[r.severity].tone}`}
              data-testid="broken-row"
              data-kind={r.kind}
              data-key={r.key}
              data-severity={r.severity}
            >
              <Badge look={severityLook[r.severity]} />
              <span className="broken-what">
                <Link href={brokenRowHref(r)} className="broken-title">
                  {r.title}
                </Link>
                <span className="broken-reason">{r.reasons.join('; ')}</span>
              </span>
              <span className="broken-age">
                {r.kind === 'scan' ? '' : `for ${formatAge(now - r.since)}`}
                {r.acknowledged && <span className="muted"> · acknowledged</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
      {rows.length > shown.length && (
        <p className="small">
          <Link href={href('/worklist')}>
            and {(rows.length - shown.length).toLocaleString()} more: the worklist has them all →
          </Link>
        </p>
      )}
    </section>
  );
}

/** Repairs observed in the last 24 h (a condition seen to go away), newest first. Events are not repairs. */
export function RecentlyFixed({ rows, now }: { rows: FixedRow[]; now: number }) {
  return (
    <section className="recently-fixed" aria-labelledby="ov-fixed" data-testid="recently-fixed">
      <h2 id="ov-fixed">Recently fixed</h2>
      {rows.length === 0 ? (
        <p className="muted">Nothing fixed in the last 24 h.</p>
      ) : (
        <ul className="fixed-strip">
          {rows.map((r) => (
            <li key={`${r.kind}:${r.key}`} data-testid="fixed-row" data-key={r.key} data-state={r.state}>
              <span aria-hidden="true">✓</span>{' '}
              {r.worklistKey ? (
                <Link href={href('/worklist', { focus: r.worklistKey })}>{r.title}</Link>
              ) : (
                <strong>{r.title}</strong>
              )}
              <span className="muted">
                {' '}
                {r.reasons.join('; ')} · cleared {formatAge(now - r.clearedAt)} ago
                {r.state === 'resolved' ? ' · resolved' : ' · resolving'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Events (a link went down or flapped, the master SM moved) that left Broken now in the last 24 h:
 * their window passed, or someone acknowledged them or marked them fixed. Not repairs: no ✓.
 */
export function RecentEvents({ rows, now }: { rows: RecentEventRow[]; now: number }) {
  if (rows.length === 0) return null;
  return (
    <section className="recently-fixed recent-events" aria-labelledby="ov-events" data-testid="recent-events">
      <h2 id="ov-events">Recent events</h2>
      <ul className="fixed-strip">
        {rows.map((r) => (
          <li key={`${r.kind}:${r.key}`} data-testid="event-row" data-key={r.key} data-how={r.how}>
            <Badge look={severityLook[r.severity]} />{' '}
            {r.worklistKey ? (
              <Link href={href('/worklist', { focus: r.worklistKey })}>{r.title}</Link>
            ) : (
              <strong>{r.title}</strong>
            )}
            <span className="muted">
              {' '}
              {r.reasons.join('; ')} · last {formatAge(now - r.at)} ago · {EVENT_END_WORDS[r.how]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
