import { formatAge, type BrokenRow, type FixedRow } from '@ibwatch/fabric';
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

/** Cables and SM problems no longer observed in the last 24 h, newest first. */
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
