import { lazy, Suspense } from 'react';
import type { FabricSummary, ScanFreshness, Severity } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { UpdatedAt } from '../../components/UpdatedAt.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { noDataAdvice } from '../../lib/coverage.ts';
import { scanLook, SEVERITIES, severityLook, type StatusLook } from '../../lib/status.ts';
import { formatDuration } from '../../lib/time.ts';
import { href, useLocation } from '../../router.ts';
import { BrokenNow, RecentEvents, RecentlyFixed } from './BrokenNow.tsx';
import { WatchCount } from '../watch/WatchCount.tsx';
import {
  countTone,
  freshnessBadge,
  latestScansByKind,
  type ScreenStatus,
  screenStatus,
  smVerdict,
} from './overview.ts';
import { StaleBanners, StatusBanner } from './StatusBanner.tsx';
import './overview.css';

// Recharts is big; the counts paint first and the sparkline follows.
const TrendSparkline = lazy(() => import('./TrendSparkline.tsx'));

const REFRESH_MS = 15_000;
/** A wall screen refreshes faster and has room for more rows. */
const KIOSK_REFRESH_MS = 10_000;

function Tile({
  label,
  value,
  testid,
  tone,
  to,
  sub,
}: {
  label: string;
  value: number;
  testid: string;
  tone?: StatusLook['tone'];
  to?: string;
  /** A second line under the label (what the number leaves out). */
  sub?: string;
}) {
  const body = (
    <>
      <span className="tile-value" data-testid={testid}>
        {value.toLocaleString()}
      </span>
      <span className="tile-label">{label}</span>
      {sub && <span className="tile-sub">{sub}</span>}
    </>
  );
  return (
    <div className={`tile${tone ? ` tone-${tone}` : ''}`} data-tone={tone ?? 'neutral'}>
      {to ? (
        <Link href={to} className="tile-link">
          {body}
        </Link>
      ) : (
        body
      )}
    </div>
  );
}

function Scans({ s, screen }: { s: FabricSummary; screen: ScreenStatus }) {
  const scans = latestScansByKind(s.lastScans);
  // A lost screen: the last runs' outcomes are as of then, told without the green of a live one.
  const lost = screen.unreachableSince !== null;
  const fresh = new Map(s.freshness.map((f) => [f.kind, f]));
  return (
    <section className="card kiosk-optional scans-card" aria-labelledby="ov-scans">
      <h2 id="ov-scans">
        <Link href="/scans">Last scans</Link>
      </h2>
      <div className="table-wrap">
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Data</th>
              <th scope="col">Last run</th>
              <th scope="col">Duration</th>
              <th scope="col">Last success</th>
            </tr>
          </thead>
          <tbody>
            {scans.map(({ kind, latest, lastOk }) => {
              const f = fresh.get(kind);
              const badge = f && freshnessBadge(f, screen);
              return (
                <tr
                  key={kind}
                  data-testid="overview-scan"
                  data-kind={kind}
                  data-status={latest?.status ?? 'never'}
                  data-freshness={badge?.state ?? 'unscheduled'}
                >
                  <th scope="row">{kind}</th>
                  <td title={f?.reason}>
                    {badge ? <Badge look={badge.look} /> : <span className="muted">not scheduled</span>}
                  </td>
                  <td title={latest ? `started ${new Date(latest.startedAt).toISOString()}` : undefined}>
                    {latest ? (
                      <Badge look={lost ? { ...scanLook[latest.status], tone: 'muted' } : scanLook[latest.status]} />
                    ) : (
                      <span className="muted">never run</span>
                    )}
                  </td>
                  <td>{formatDuration(latest?.durationMs)}</td>
                  <td>
                    {f?.lastOkAt || lastOk ? (
                      <Time at={f?.lastOkAt ?? lastOk?.finishedAt ?? lastOk?.startedAt} short />
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** "As of" note for a card whose data comes from a scan kind that is stale now. */
function StaleNote({ f }: { f: ScanFreshness | undefined }) {
  if (f?.state !== 'stale') return null;
  return (
    <p className="stale-note" data-testid="stale-note" data-kind={f.kind}>
      ◷ As of <Time at={f.lastOkAt} short />: {f.kind} scans are stale.
    </p>
  );
}

/** What the since-last-clear count can and cannot tell, under its tile. */
function sinceClearSub(s: FabricSummary): string {
  const rate = s.counterRates === 'first-snapshot' ? 'no rate yet: one snapshot' : 'no rate yet';
  return s.portsSaturated > 0
    ? `${s.portsSaturated.toLocaleString()} saturated: clear counters and measure again; ${rate}`
    : `ports; ${rate}`;
}

function Side({ s, screen }: { s: FabricSummary; screen: ScreenStatus }) {
  const stale = (kind: string) => s.freshness.find((f) => f.kind === kind && f.state === 'stale');
  const smStale = stale('sm');
  const v = smVerdict(s.sm);
  // Old SM data, or a screen that lost its collector: the SM word is what it was, never green.
  const smLook = smStale || screen.unreachableSince !== null ? { ...v.look, tone: 'muted' as const } : v.look;
  const ncclImport = latestScansByKind(s.lastScans).find((x) => x.kind === 'import-nccl');
  return (
    <div className="overview-side">
      <div className="tiles">
        <Tile
          label="Switches"
          value={s.switches}
          testid="summary-switches"
          to="/topology"
          sub={s.aggregationNodes ? `+ ${s.aggregationNodes.toLocaleString()} SHARP Aggregation Nodes` : undefined}
        />
        <Tile label="HCAs" value={s.hcas} testid="summary-hcas" to="/topology" />
        <Tile label="Links" value={s.links} testid="summary-links" to="/topology" />
        <Tile
          label="Degraded links"
          value={s.degradedLinks}
          testid="summary-degraded"
          tone={countTone(s.degradedLinks, 'warn')}
          to="/worklist"
        />
        <Tile
          label="Down links"
          value={s.downLinks}
          testid="summary-down"
          tone={countTone(s.downLinks, 'crit')}
          to="/worklist"
        />
        <Tile
          label="Ports over threshold"
          value={s.portsOverThreshold}
          testid="summary-over-threshold"
          tone={countTone(s.portsOverThreshold, 'bad')}
          to="/worklist"
          sub={s.counterRates === 'first-snapshot' ? 'no rates yet: rates from the next snapshot' : undefined}
        />
        {(s.portsErrorsSinceClear > 0 || s.counterRates === 'first-snapshot') && (
          <Tile
            label="Error counts since last clear"
            value={s.portsErrorsSinceClear}
            testid="summary-since-clear"
            tone={countTone(s.portsErrorsSinceClear, 'warn')}
            to="/worklist"
            sub={sinceClearSub(s)}
          />
        )}
      </div>
      <StaleNote f={stale('topology') ?? stale('ibdiagnet')} />

      <section className="card" aria-labelledby="ov-sm">
        <h2 id="ov-sm">
          <Link href="/sm">Subnet manager</Link>
        </h2>
        <p className="big-status">
          <Badge look={smLook} testid="sm-status" big />
        </p>
        <StaleNote f={smStale} />
        <p data-testid="sm-master">
          Master: <strong>{s.sm.masterName ?? s.sm.masterGuid ?? 'none'}</strong>
        </p>
        <p className="muted">{v.detail}</p>
        {s.sm.lastChangeAt !== null && (
          <p className="muted">
            Last change: <Time at={s.sm.lastChangeAt} />
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="ov-findings">
        <h2 id="ov-findings">
          <Link href={href('/findings', { state: 'current' })}>Findings now</Link>
        </h2>
        <ul className="sev-counts">
          {SEVERITIES.map((sev: Severity) => {
            const n = s.findingsBySeverity[sev] ?? 0;
            return (
              <li key={sev} className={`tone-${n > 0 ? severityLook[sev].tone : 'muted'}`}>
                <Link href={href('/findings', { state: 'current', severity: sev })} data-testid={`findings-${sev}`}>
                  <span className="sev-count">{n.toLocaleString()}</span>
                  <span>
                    <span aria-hidden="true">{severityLook[sev].icon}</span> {severityLook[sev].label}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
        <p className="small" data-testid="overview-watch">
          <WatchCount /> <span className="muted">(error rates rising towards the major threshold)</span>
        </p>
        {s.clearedFindings > 0 && (
          <p className="small muted" data-testid="findings-cleared">
            <Link href={href('/findings', { state: 'cleared' })}>{s.clearedFindings.toLocaleString()} cleared</Link> (no
            longer observed; they resolve after the clean period).
          </p>
        )}
      </section>

      <Scans s={s} screen={screen} />

      <section className="card kiosk-optional" aria-labelledby="ov-nccl">
        <h2 id="ov-nccl">
          <Link href="/bandwidth">nccl busbw trend</Link>
        </h2>
        {s.ncclTrend.length === 0 ? (
          <Empty>
            No nccl-tests runs imported yet.
            {ncclImport?.lastOk ? (
              <>
                {' '}
                Last successful import at <Time at={ncclImport.lastOk.startedAt} />.
              </>
            ) : (
              <>
                {' '}
                Import one on the <Link href="/scans">Scans</Link> page.
              </>
            )}
          </Empty>
        ) : (
          <Suspense fallback={<div className="sparkline-placeholder" />}>
            <TrendSparkline points={s.ncclTrend} />
          </Suspense>
        )}
      </section>
    </div>
  );
}

export function OverviewPage() {
  const { query } = useLocation();
  const kiosk = query.kiosk === '1';
  const refreshMs = kiosk ? KIOSK_REFRESH_MS : REFRESH_MS;
  const state = useApi('/api/summary', { refreshMs });
  const now = Date.now();
  return (
    <section className={`overview${kiosk ? ' kiosk-layout' : ''}`} data-testid="overview">
      <div className="page-head">
        <h1>Fabric overview</h1>
        <UpdatedAt poll={state} refreshMs={refreshMs} />
      </div>
      <Async state={state} what="fabric summary">
        {(s) => {
          const status = screenStatus(s, state);
          return (
            <div
              className={status.unreachableSince === null ? undefined : 'screen-lost'}
              data-lost={status.unreachableSince !== null}
            >
              <StatusBanner status={status} />
              <StaleBanners freshness={s.freshness} unreachableSince={status.unreachableSince} />
              {s.switches + s.hcas === 0 ? (
                <Empty>
                  <span data-testid="overview-no-data">
                    <strong>No fabric data yet:</strong> no topology scan or ibdiagnet import has completed, so nothing
                    here is an all-clear.{' '}
                    {latestScansByKind(s.lastScans).find((x) => x.kind === 'topology')?.latest?.error ?? ''}{' '}
                    {noDataAdvice(
                      { importOnly: s.freshness.length === 0 },
                      s.freshness.map((f) => f.kind),
                    )}{' '}
                    See <Link href="/scans">Scans</Link>.
                  </span>
                </Empty>
              ) : (
                <div className="overview-grid">
                  <div className="overview-main">
                    <BrokenNow
                      rows={s.brokenNow}
                      now={now}
                      limit={kiosk ? 24 : 12}
                      unjudged={
                        s.counterRates === 'rated'
                          ? undefined
                          : s.counterRates === 'none'
                            ? 'Error counters not read yet: no counter snapshot.'
                            : 'Error rates not judged yet: rates from the next snapshot.'
                      }
                    />
                    <RecentlyFixed rows={s.recentlyFixed} now={now} />
                    <RecentEvents rows={s.recentEvents} now={now} />
                  </div>
                  <Side s={s} screen={status} />
                </div>
              )}
            </div>
          );
        }}
      </Async>
    </section>
  );
}
