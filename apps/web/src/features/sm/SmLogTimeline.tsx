import type { SmLogReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { formatSweep, logEventLook, shownLogEvents } from './sm-log.ts';

function LogEvents({ r }: { r: SmLogReply }) {
  const events = shownLogEvents(r.events);
  return (
    <>
      {r.follow && (
        <p className="muted small" data-testid="sm-log-follow">
          Following <span className="mono">{r.follow.path}</span> (read up to byte {r.follow.offset}, last look{' '}
          <Time at={r.follow.lastPollAt} />){r.follow.error && <strong> — {r.follow.error}</strong>}
        </p>
      )}
      {events.length === 0 ? (
        <Empty>
          No OpenSM log read yet: set IBWATCH_OPENSM_LOG on the SM host, or run ibwatch import opensm-log FILE.
        </Empty>
      ) : (
        <ol className="timeline" data-testid="sm-log-timeline">
          {events.map((e) => (
            <li key={e.id} data-testid="sm-log-event" data-kind={e.kind} data-state={e.state ?? undefined}>
              <Time at={e.at} /> <Badge look={logEventLook(e)} />{' '}
              <span className="sm-event-detail">
                {e.kind === 'heavy-sweep' && e.durationMs !== null ? `took ${formatSweep(e.durationMs)}` : e.message}
              </span>
              <div className="muted small">
                SM stamp <span className="mono">{e.time ?? '—'}</span>
                {e.host && ` · ${e.host}${e.pid !== null ? ` pid ${e.pid}` : ''}`} · {e.source}
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** The SM's own account, timed by its log: a failover to the second, not to the SM scan. */
export function SmLogTimeline() {
  const state = useApi('/api/sms/log?limit=300', { refreshMs: 15_000 });
  return (
    <section className="card" aria-labelledby="sm-log-h" data-testid="sm-log">
      <h2 id="sm-log-h">From the OpenSM log</h2>
      <Async state={state} what="OpenSM log events">
        {(r) => <LogEvents r={r} />}
      </Async>
    </section>
  );
}
