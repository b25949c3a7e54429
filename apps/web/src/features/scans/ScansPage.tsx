import type { ScanKind, ScanRow } from '@ibwatch/fabric';
import { api } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { TokenHint, WriteButton } from '../../components/WriteButton.tsx';
import { noDataAdvice } from '../../lib/coverage.ts';
import { scanLook } from '../../lib/status.ts';
import { formatDuration } from '../../lib/time.ts';
import { enumParam, href, setQuery, useLocation } from '../../router.ts';
import { SCHEDULED_KINDS } from '../overview/overview.ts';
import { NcclImportForm } from './NcclImportForm.tsx';
import { Notifications } from './Notifications.tsx';
import { anyRunning, summaryText } from './scans.ts';

const LIMITS = ['50', '200', '1000'] as const;

/** No scan in the history: what fills it on this collector (its scheduler, or imports only). */
function NoScans() {
  const { data } = useApi('/api/summary');
  if (!data) return <Empty>No scans yet.</Empty>;
  const importOnly = data.collector.schedules.length === 0;
  return (
    <div data-testid="no-rows" data-coverage="no-data" data-import-only={importOnly}>
      <Empty>
        <strong>No scans yet.</strong>{' '}
        {noDataAdvice(
          { importOnly },
          data.freshness.map((f) => f.kind),
        )}
      </Empty>
    </div>
  );
}

function ScanTable({ scans }: { scans: ScanRow[] }) {
  if (scans.length === 0) return <NoScans />;
  return (
    <table className="table">
      <caption className="sr-only">Scan history, newest first</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Kind</th>
          <th scope="col">Trigger</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Duration</th>
          <th scope="col">Result / error</th>
        </tr>
      </thead>
      <tbody>
        {scans.map((s) => (
          <tr key={s.id} data-testid="scan-row" data-status={s.status} data-kind={s.kind}>
            <td>{s.id}</td>
            <td>{s.kind}</td>
            <td>{s.trigger}</td>
            <td>
              <Badge look={scanLook[s.status]} />
            </td>
            <td>
              <Time at={s.startedAt} />
            </td>
            <td>{s.status === 'running' ? 'running…' : formatDuration(s.durationMs)}</td>
            <td className="scan-result">
              {s.error && (
                <pre className="scan-error" data-testid="scan-error">
                  {s.error}
                </pre>
              )}
              {Object.keys(s.summary).length > 0 && <div className="muted">{summaryText(s.summary)}</div>}
              {s.warnings.length > 0 && (
                <details>
                  <summary>
                    ▲ {s.warnings.length} warning{s.warnings.length === 1 ? '' : 's'}
                  </summary>
                  <ul className="warnings">
                    {s.warnings.map((w, i) => (
                      <li key={i}>
                        <code>{w}</code>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
              {Object.keys(s.toolVersions).length > 0 && (
                <div className="muted small">
                  {Object.entries(s.toolVersions)
                    .map(([k, v]) => `${k} ${v}`)
                    .join(', ')}
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ScansPage() {
  const { query } = useLocation();
  const limit = enumParam(query, 'limit', LIMITS, '50');
  const state = useApi(`/api/scans${href('', { limit })}`, { refreshMs: 10_000 });
  const running = state.data ? anyRunning(state.data) : false;
  return (
    <section data-testid="scans-page">
      <div className="page-head">
        <h1>Scans</h1>
        <label>
          Show{' '}
          <select
            value={limit}
            onChange={(e) => setQuery({ limit: e.target.value })}
            aria-label="Number of scans shown"
          >
            {LIMITS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
      </div>
      <section className="card" aria-labelledby="scan-now">
        <h2 id="scan-now">Scan now</h2>
        <TokenHint />
        <div className="row wrap">
          {SCHEDULED_KINDS.map((kind: ScanKind) => (
            <WriteButton
              key={kind}
              label={`Scan ${kind}`}
              busyLabel={`Starting ${kind}…`}
              testid={`scan-now-${kind}`}
              ariaLabel={`Start a ${kind} scan now`}
              action={() => api.post('/api/scans', { kind })}
              onDone={state.reload}
            />
          ))}
        </div>
        {running && <p className="muted">◌ A scan is running; this list refreshes by itself.</p>}
      </section>
      <Async state={state} what="scan history">
        {(scans) => <ScanTable scans={scans} />}
      </Async>
      <NcclImportForm />
      <Notifications />
    </section>
  );
}
