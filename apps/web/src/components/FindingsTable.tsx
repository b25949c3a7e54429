import { Fragment, useState } from 'react';
import type { FindingRow } from '@ibwatch/fabric';
import { impactBrief } from '../lib/impact.ts';
import { api } from '../api/client.ts';
import { FindingHistory } from './FindingHistory.tsx';
import { lifecycleLook, severityLook, sortBySeverity } from '../lib/status.ts';
import { Badge } from './Badge.tsx';
import { Empty } from './States.tsx';
import { Time } from './Time.tsx';
import { WriteButton } from './WriteButton.tsx';

/**
 * Findings with severity, state, times, a history per row (who did what, why) and (with
 * `actions`) acknowledge / resolve buttons.
 */
export function FindingsTable({
  rows,
  actions = false,
  reload,
  empty = 'No findings.',
}: {
  rows: FindingRow[];
  actions?: boolean;
  reload?: () => void;
  empty?: string;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  if (rows.length === 0) return <Empty>{empty}</Empty>;
  const toggle = (id: number) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns = actions ? 7 : 6;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Severity</th>
            <th scope="col">Finding</th>
            <th scope="col">Subject</th>
            <th scope="col">State</th>
            <th scope="col">First seen</th>
            <th scope="col">Last seen</th>
            {actions && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {sortBySeverity(rows).map((f) => (
            <Fragment key={f.id}>
              <tr
                data-testid="finding-row"
                data-finding-id={f.id}
                data-severity={f.severity}
                data-state={f.state}
                data-cleared={f.clearedAt !== null ? '1' : '0'}
              >
                <td>
                  <Badge look={severityLook[f.severity]} />
                  {f.peakSeverity !== f.severity && (
                    <div className="small muted" data-testid="finding-peak" data-peak={f.peakSeverity}>
                      peak {severityLook[f.peakSeverity].label}
                    </div>
                  )}
                </td>
                <td>
                  {f.title}
                  <div className="small muted">
                    {f.kind}{' '}
                    <button
                      type="button"
                      className="btn-small no-print"
                      aria-expanded={expanded.has(f.id)}
                      aria-label={`History of finding ${f.id}`}
                      onClick={() => toggle(f.id)}
                      data-testid="finding-history-toggle"
                    >
                      {expanded.has(f.id) ? 'History ▾' : 'History ▸'}
                    </button>
                  </div>
                </td>
                <td className="mono small">
                  {f.subjectType} {f.subjectKey}
                  {f.impact && (
                    <div className="muted" data-testid="finding-impact" data-gpus={f.impact.gpus}>
                      {impactBrief(f.impact)}
                    </div>
                  )}
                </td>
                <td>
                  <Badge look={lifecycleLook(f.state, f.clearedAt)} />
                  {f.clearedAt !== null && f.state !== 'resolved' && (
                    <div className="small muted">
                      since <Time at={f.clearedAt} short />
                    </div>
                  )}
                  {f.acknowledgedBy && <div className="small muted">by {f.acknowledgedBy}</div>}
                  {f.resolvedAt !== null && (
                    <div className="small muted">
                      <Time at={f.resolvedAt} short />
                    </div>
                  )}
                </td>
                <td>
                  <Time at={f.firstSeen} short />
                </td>
                <td>
                  <Time at={f.lastSeen} short />
                </td>
                {actions && (
                  <td>
                    <div className="row wrap">
                      {f.state === 'open' && (
                        <WriteButton
                          label="Acknowledge"
                          testid="finding-ack"
                          ariaLabel={`Acknowledge finding ${f.id}`}
                          action={() => api.post(`/api/findings/${f.id}/ack`)}
                          onDone={reload}
                        />
                      )}
                      {f.state !== 'resolved' && (
                        <WriteButton
                          label="Resolve"
                          testid="finding-resolve"
                          ariaLabel={`Resolve finding ${f.id}`}
                          action={() => api.post(`/api/findings/${f.id}/resolve`)}
                          onDone={reload}
                        />
                      )}
                    </div>
                  </td>
                )}
              </tr>
              {expanded.has(f.id) && (
                <tr className="finding-history-row">
                  <td colSpan={columns}>
                    <FindingHistory id={f.id} actions={actions} onChange={reload} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
