import { lazy, Suspense } from 'react';
import type { FabricSummary, Severity } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { scanLook, SEVERITIES, severityLook } from '../../lib/status.ts';
import { formatDuration } from '../../lib/time.ts';
import { href } from '../../router.ts';
import { latestScansByKind, smVerdict } from './overview.ts';

// Recharts is big; the counts paint first and the sparkline follows.
const TrendSparkline = lazy(() => import('./TrendSparkline.tsx'));

const REFRESH_MS = 15_000;

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
  tone?: string;
  to?: string;
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
    <div className={`tile${tone ? ` tone-${tone}` : ''}`}>
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

function Summary({ s }: { s: FabricSummary }) {
  const v = smVerdict(s.sm);
  const scans = latestScansByKind(s.lastScans);
  const ncclImport = scans.find((x) => x.kind === 'import-nccl');
  return (
    <>
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
          tone={s.degradedLinks > 0 ? 'warn' : 'ok'}
          to="/worklist"
          sub={`${s.downLinks.toLocaleString()} down`}
        />
        <Tile
          label="Ports over threshold"
          value={s.portsOverThreshold}
          testid="summary-over-threshold"
          tone={s.portsOverThreshold > 0 ? 'bad' : 'ok'}
          to="/worklist"
        />
      </div>

      <div className="grid-2">
        <section className="card" aria-labelledby="ov-sm">
          <h2 id="ov-sm">
            <Link href="/sm">Subnet manager</Link>
          </h2>
          <p className="big-status">
            <Badge look={v.look} testid="sm-status" big />
          </p>
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
            <Link href={href('/findings', { state: 'open' })}>Open findings</Link>
          </h2>
          <ul className="sev-counts">
            {SEVERITIES.map((sev: Severity) => (
              <li key={sev} className={`tone-${severityLook[sev].tone}`}>
                <Link href={href('/findings', { state: 'open', severity: sev })} data-testid={`findings-${sev}`}>
                  <span className="sev-count">{(s.findingsBySeverity[sev] ?? 0).toLocaleString()}</span>
                  <span>
                    <span aria-hidden="true">{severityLook[sev].icon}</span> {severityLook[sev].label}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <div className="grid-2">
        <section className="card" aria-labelledby="ov-scans">
          <h2 id="ov-scans">
            <Link href="/scans">Last scans</Link>
          </h2>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Last success</th>
              </tr>
            </thead>
            <tbody>
              {scans.map(({ kind, latest, lastOk }) => (
                <tr key={kind} data-testid="overview-scan" data-kind={kind} data-status={latest?.status ?? 'never'}>
                  <th scope="row">{kind}</th>
                  <td>
                    {latest ? <Badge look={scanLook[latest.status]} /> : <span className="muted">never run</span>}
                  </td>
                  <td>{latest ? <Time at={latest.startedAt} short /> : '—'}</td>
                  <td>{formatDuration(latest?.durationMs)}</td>
                  <td>{lastOk ? <Time at={lastOk.finishedAt ?? lastOk.startedAt} short /> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section className="card" aria-labelledby="ov-nccl">
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
    </>
  );
}

export function OverviewPage() {
  const state = useApi<FabricSummary>('/api/summary', { refreshMs: REFRESH_MS });
  return (
    <section className="overview" data-testid="overview">
      <div className="page-head">
        <h1>Fabric overview</h1>
        <p className="updated" aria-live="polite" data-testid="updated-at">
          {state.updatedAt ? (
            <>
              Updated at <Time at={state.updatedAt} /> · refreshes every {REFRESH_MS / 1000} s
              {state.loading && <span className="muted"> · refreshing…</span>}
            </>
          ) : null}
        </p>
      </div>
      <Async state={state} what="fabric summary">
        {(s) =>
          s.switches + s.hcas === 0 ? (
            <Empty>
              No fabric data yet: no topology scan has completed.{' '}
              {latestScansByKind(s.lastScans).find((x) => x.kind === 'topology')?.latest?.error ?? ''} See{' '}
              <Link href="/scans">Scans</Link>.
            </Empty>
          ) : (
            <Summary s={s} />
          )
        }
      </Async>
    </section>
  );
}
