import { useState } from 'react';
import { ncclSeriesName, passRateText, type BandwidthReport, type NcclRunRow } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { severityLook } from '../../lib/status.ts';
import { formatLocal } from '../../lib/time.ts';
import { href, setQuery, useLocation } from '../../router.ts';
import {
  collectivesOf,
  formatGBs,
  formatPct,
  gdrUnknownRuns,
  hostMemoryFallbacks,
  parseRange,
  presetRange,
  reportApiPath,
  reportCsvHref,
  runsApiPath,
  shiftRange,
  type ReportRange,
} from './bandwidth.ts';
import { BandwidthChart } from './BandwidthChart.tsx';
import { RunsTable } from './RunsTable.tsx';
import './bandwidth.css';

function RangeControls({ r }: { r: ReportRange }) {
  const go = (x: ReportRange) => setQuery({ from: x.from, to: x.to, period: x.period === 'custom' ? null : x.period });
  return (
    <div className="row wrap no-print" role="group" aria-label="Report period">
      <label>
        Period
        <select
          value={r.period}
          onChange={(e) =>
            e.target.value !== 'custom' && go(presetRange(e.target.value as 'week' | 'month', Date.now()))
          }
          data-testid="bandwidth-period"
        >
          <option value="week">week (7 days)</option>
          <option value="month">month (30 days)</option>
          {r.period === 'custom' && <option value="custom">custom</option>}
        </select>
      </label>
      <button type="button" onClick={() => go(shiftRange(r, -1))} aria-label="Previous period">
        ← Previous
      </button>
      <button type="button" onClick={() => go(shiftRange(r, 1))} aria-label="Next period" disabled={r.to > Date.now()}>
        Next →
      </button>
    </div>
  );
}

function Report({ rep }: { rep: BandwidthReport }) {
  return (
    <section className="card report" aria-labelledby="bw-report" data-testid="bandwidth-report">
      <h2 id="bw-report">
        Period report: <Time at={rep.from} /> → <Time at={rep.to} />
      </h2>
      {rep.runs === 0 ? (
        <Empty>No nccl-tests run in this period.</Empty>
      ) : (
        <>
          <p className="report-headline">
            {rep.passRate !== null && (
              <>
                <strong data-testid="bandwidth-pass-rate">{formatPct(rep.passRate)}</strong> met the target.{' '}
              </>
            )}
            <span data-testid="bandwidth-pass-text">{passRateText(rep)}</span>
          </p>
          <table className="table">
            <caption className="sr-only">busbw per collective: each run's peak busbw</caption>
            <thead>
              <tr>
                <th scope="col">Collective</th>
                <th scope="col" className="num">
                  Runs
                </th>
                <th scope="col" className="num">
                  With target
                </th>
                <th scope="col" className="num">
                  Passed
                </th>
                <th scope="col" className="num">
                  Best
                </th>
                <th scope="col" className="num">
                  Median
                </th>
                <th scope="col" className="num">
                  Worst
                </th>
                <th scope="col" className="num">
                  Target
                </th>
              </tr>
            </thead>
            <tbody>
              {rep.byCollective.map((c) => {
                // Runs without a target are in worst too: only a judged run that missed its target marks it.
                const below = c.passed < c.withTarget;
                return (
                  <tr key={ncclSeriesName(c)} data-testid="report-collective-row" data-series={ncclSeriesName(c)}>
                    <th scope="row">{ncclSeriesName(c)}</th>
                    <td className="num">{c.runs}</td>
                    <td className="num">{c.withTarget}</td>
                    <td className="num">{c.withTarget ? c.passed : '—'}</td>
                    <td className="num">{formatGBs(c.bestGBs)}</td>
                    <td className="num">{formatGBs(c.medianGBs)}</td>
                    <td className={`num${below ? ' mismatch' : ''}`}>
                      {below ? '▼ ' : ''}
                      {formatGBs(c.worstGBs)}
                    </td>
                    <td className="num">{c.targetGBs === null ? 'none' : formatGBs(c.targetGBs)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="muted small">
            Each run counts with its peak busbw over every size, the figure nccl-tests users quote, judged against the
            target of its hardware profile (GPU model, GPUs and NICs per node, from the log); a run whose hardware no
            profile fits has no target and no verdict. Single-node runs are judged against the NVLink figure where the
            profile has one. Regressions compare the busbw of the largest size.
          </p>
        </>
      )}
      <h3>Top fabric issues in this period (whole fabric)</h3>
      {rep.topFabricIssues.length === 0 ? (
        <p className="muted">● No fabric finding in this period.</p>
      ) : (
        <ol>
          {rep.topFabricIssues.map((i) => (
            <li key={i.kind + i.title}>
              <Badge look={severityLook[i.severity]} /> {i.title} <span className="muted">×{i.count}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function RunLinks({ runs }: { runs: NcclRunRow[] }) {
  return runs.map((f, i) => (
    <span key={f.id}>
      {i > 0 && ', '}
      <Link href={`/bandwidth/runs/${f.id}`}>#{f.id}</Link>
    </span>
  ));
}

export default function BandwidthPage() {
  const { query } = useLocation();
  const [now] = useState(() => Date.now());
  const r = parseRange(query, now);
  const collective = query.collective || undefined;
  const runs = useApi(runsApiPath(r, collective));
  const report = useApi(reportApiPath(r));
  const allCollectives = runs.data ? collectivesOf(runs.data) : [];
  return (
    <section data-testid="bandwidth-page">
      <div className="page-head">
        <h1>Bandwidth (nccl-tests)</h1>
        <div className="row no-print">
          <a href={reportCsvHref(r)} className="button-link" download data-testid="bandwidth-csv">
            ⇩ CSV
          </a>
          <button type="button" onClick={() => window.print()} data-testid="bandwidth-print">
            Print
          </button>
        </div>
      </div>
      <p className="print-only">
        ibwatch bandwidth report · {formatLocal(r.from)} → {formatLocal(r.to)}
        {collective ? ` · ${collective}` : ''}
      </p>
      <div className="filters">
        <RangeControls r={r} />
        <label className="no-print">
          Collective
          <select
            value={collective ?? ''}
            onChange={(e) => setQuery({ collective: e.target.value })}
            data-testid="filter-collective"
          >
            <option value="">all</option>
            {[...new Set([...allCollectives, ...(collective ? [collective] : [])])].map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
      <Async state={runs} what="nccl runs">
        {(rows) => {
          const fallbacks = hostMemoryFallbacks(rows);
          const unknown = gdrUnknownRuns(rows);
          return (
            <>
              {fallbacks.length > 0 && (
                <div className="banner tone-crit" role="alert" data-testid="host-memory-fallback">
                  ⚠ HOST-MEMORY FALLBACK in {fallbacks.length} run{fallbacks.length === 1 ? '' : 's'}: their NCCL_DEBUG
                  lines show GPUDirect RDMA disabled, so NCCL staged through host memory. Runs:{' '}
                  <RunLinks runs={fallbacks} />
                </div>
              )}
              {unknown.length > 0 && (
                <div className="banner tone-warn" data-testid="gdr-unknown">
                  ◆ {unknown.length} run{unknown.length === 1 ? ' is' : 's are'} in the host-staging band (50-100 GB/s);
                  GDR state unknown: rerun with NCCL_DEBUG=INFO. Runs: <RunLinks runs={unknown} />
                </div>
              )}
              {rows.length === 0 ? (
                <Empty>
                  No nccl-tests run between <Time at={r.from} /> and <Time at={r.to} />. Import one on the{' '}
                  <Link href={href('/scans')}>Scans</Link> page.
                </Empty>
              ) : (
                <>
                  <BandwidthChart runs={rows} from={r.from} to={r.to} />
                  <RunsTable runs={rows} />
                </>
              )}
            </>
          );
        }}
      </Async>
      <Async state={report} what="period report">
        {(rep) => <Report rep={rep} />}
      </Async>
    </section>
  );
}
