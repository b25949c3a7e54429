import type { CSSProperties } from 'react';
import { formatAge, type FleetFabric, type FleetFabricSummary } from '@ibwatch/fabric';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { Time } from '../../components/Time.tsx';
import { severityLook } from '../../lib/status.ts';
import { smVerdict } from '../overview/overview.ts';
import { countsLine, dashboardHref, FLEET_LOOK, freshnessLine, NO_SIGNAL, onFabric, tileRowHref } from './fleet.ts';

const FRESH_ICON = { fresh: '●', pending: '◌', stale: '◷', unknown: '?' } as const;

/** What the fabric's collector said: the top broken-now rows, SM, freshness and counts. */
function Said({
  f,
  s,
  now,
  rows,
  asOf,
}: {
  f: FleetFabric;
  s: FleetFabricSummary;
  now: number;
  rows: number;
  /** What it said is no longer current: no green SM word, no "fresh". */
  asOf: boolean;
}) {
  const shown = s.brokenNow.slice(0, rows);
  const v = smVerdict(s.sm);
  const sm = asOf ? { ...v, look: { ...v.look, tone: 'muted' as const } } : v;
  const fresh = freshnessLine(s.freshness, asOf);
  return (
    <>
      {s.brokenNowTotal === 0 ? (
        <p className="fleet-clear" data-testid="fleet-broken-empty">
          <span aria-hidden="true">●</span> Nothing broken now
        </p>
      ) : (
        <ol className="fleet-broken" aria-label={`Broken now on ${f.name}`}>
          {shown.map((r) => (
            <li
              key={`${r.kind}:${r.key}`}
              className={`fleet-broken-row tone-${severityLook[r.severity].tone}`}
              data-testid="fleet-broken-row"
              data-key={r.key}
              data-severity={r.severity}
            >
              <Badge look={severityLook[r.severity]} />
              <span className="fleet-broken-what">
                <Link href={tileRowHref(f, r)}>{r.title}</Link>
                <span className="fleet-broken-reason">
                  {r.reasons.join('; ')}
                  {r.kind !== 'scan' && <span className="muted"> · for {formatAge(now - r.since)}</span>}
                </span>
              </span>
            </li>
          ))}
          {s.brokenNowTotal > shown.length && (
            <li className="fleet-more">
              <Link href={onFabric(f, '/worklist')}>
                and {(s.brokenNowTotal - shown.length).toLocaleString()} more on its worklist →
              </Link>
            </li>
          )}
        </ol>
      )}
      <p className="fleet-sm" data-testid="fleet-sm" data-sm={s.sm.status}>
        <span className="fleet-label">SM</span> <Badge look={sm.look} /> <span className="muted">{sm.detail}</span>
      </p>
      <p className="fleet-fresh" data-testid="fleet-freshness" data-freshness={fresh.state}>
        <span className="fleet-label">Data</span>{' '}
        <span className={fresh.state === 'stale' ? 'fleet-fresh-stale' : undefined}>
          <span aria-hidden="true">{FRESH_ICON[fresh.state]}</span> {fresh.text}
        </span>
      </p>
      <p className="fleet-counts muted">{countsLine(s)}</p>
    </>
  );
}

/**
 * One fabric on the fleet wall: its name, its word (big), why, and what its collector said.
 * A fabric that could not be read keeps what it said last, dimmed under an "as of" line.
 */
export function FabricTile({
  f,
  now,
  kiosk,
  rows,
  lost,
}: {
  f: FleetFabric;
  now: number;
  kiosk: boolean;
  rows: number;
  /** This page lost its own collector: the tile is as old as the page. */
  lost: boolean;
}) {
  // Every tile is as old as this page's last answer: from the first failed poll it says STALE.
  const word = lost ? 'STALE' : f.word;
  const look = FLEET_LOOK[word];
  const noSignal = NO_SIGNAL.has(word);
  const dashboard = dashboardHref(f, kiosk);
  return (
    <li
      className={`fleet-tile tone-${look.tone}${noSignal ? ' no-signal' : ''}`}
      data-testid="fleet-tile"
      data-fabric={f.name}
      data-status={word}
      data-stale={f.stale || lost ? 'true' : 'false'}
      aria-labelledby={`fleet-${f.name}`}
    >
      <div className="fleet-tile-head">
        <h2 id={`fleet-${f.name}`} className="fleet-name">
          {f.url === null ? <Link href={dashboard}>{f.name}</Link> : <a href={dashboard}>{f.name}</a>}
        </h2>
        <span className="fleet-where muted">
          {f.self ? (
            'this collector'
          ) : (
            <a href={dashboard} data-testid="fleet-tile-link">
              {f.url?.replace(/^https?:\/\//, '')} ↗
            </a>
          )}
        </span>
      </div>
      <p
        className="fleet-word"
        data-testid="fleet-tile-word"
        style={{ '--word-chars': look.label.length } as CSSProperties}
      >
        <span aria-hidden="true">{look.icon}</span> {look.label}
      </p>
      {f.reasons.length > 0 && (
        <ul className="fleet-reasons" data-testid="fleet-tile-reasons">
          {f.reasons.slice(0, 3).map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      {f.summary ? (
        <div className={f.stale || lost ? 'fleet-said fleet-said-stale' : 'fleet-said'}>
          {f.stale && (
            <p className="stale-note" data-testid="fleet-as-of">
              ◷ As of <Time at={f.lastOkAt} short />, when it last answered:
            </p>
          )}
          {/* Ages as of what it said: "for 60 s" then, not a time that keeps counting. */}
          <Said
            f={f}
            s={f.summary}
            now={f.stale && f.lastOkAt !== null ? f.lastOkAt : now}
            rows={rows}
            asOf={f.stale || lost}
          />
        </div>
      ) : null}
    </li>
  );
}
