import { useState } from 'react';
import { api } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
import { severityLook } from '../lib/status.ts';
import { Badge } from './Badge.tsx';
import { Async, Empty } from './States.tsx';
import { Time } from './Time.tsx';
import { WriteButton } from './WriteButton.tsx';

const EVENT_LABELS: Record<string, string> = {
  opened: 'Opened',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  'auto-resolved': 'Resolved automatically (stayed cleared)',
  cleared: 'Cleared (no longer observed)',
  'window-ended': 'Window ended (did not happen again)',
  'observed-again': 'Observed again',
  severity: 'Severity changed',
};
/** A history step in words; a step this UI does not know is shown as the API names it. */
export const eventLabel = (event: string): string => EVENT_LABELS[event] ?? event;

/**
 * A finding's history (who did what, when, why) from `GET /api/findings/:id`, and with `actions`
 * a note field to acknowledge or resolve with a reason.
 */
export function FindingHistory({ id, actions, onChange }: { id: number; actions: boolean; onChange?: () => void }) {
  const detail = useApi(`/api/findings/${id}`);
  const [note, setNote] = useState('');
  const done = () => {
    setNote('');
    detail.reload();
    onChange?.();
  };
  return (
    <div className="finding-history" data-testid="finding-history" data-finding-id={id}>
      <Async state={detail} what="history">
        {(d) => (
          <>
            <p className="small" data-testid="finding-peak-severity" data-peak={d.peakSeverity}>
              Worst severity: <Badge look={severityLook[d.peakSeverity]} />
              {d.peakSeverity !== d.severity && <span className="muted"> (now {severityLook[d.severity].label})</span>}
            </p>
            {d.history.length === 0 ? (
              <Empty>No history recorded for this finding.</Empty>
            ) : (
              <ol className="history-list">
                {d.history.map((e, i) => (
                  <li key={i} data-testid="finding-event" data-event={e.event}>
                    <Time at={e.at} short /> <strong>{eventLabel(e.event)}</strong>{' '}
                    {e.by ? (
                      <>
                        by <span className="mono">{e.by}</span>
                      </>
                    ) : (
                      <span className="muted">by ibwatch</span>
                    )}
                    {e.note && <div className="history-note">“{e.note}”</div>}
                  </li>
                ))}
              </ol>
            )}
            {actions && d.state !== 'resolved' && (
              <form className="row wrap history-form" onSubmit={(e) => e.preventDefault()}>
                <label>
                  Why (recorded with your token's name)
                  <input
                    value={note}
                    maxLength={1000}
                    placeholder="e.g. reseating the cable in R07"
                    onChange={(e) => setNote(e.target.value)}
                    data-testid="finding-note"
                  />
                </label>
                {d.state === 'open' && (
                  <WriteButton
                    label="Acknowledge with note"
                    testid="finding-note-ack"
                    action={() => api.post(`/api/findings/${id}/ack`, { note })}
                    onDone={done}
                  />
                )}
                <WriteButton
                  label="Resolve with note"
                  testid="finding-note-resolve"
                  action={() => api.post(`/api/findings/${id}/resolve`, { note })}
                  onDone={done}
                />
              </form>
            )}
          </>
        )}
      </Async>
    </div>
  );
}
