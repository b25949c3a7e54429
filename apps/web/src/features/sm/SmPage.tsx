import type { SmReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { smVerdict } from '../overview/overview.ts';
import { smAlarm, smLabel, sortEvents, sortSms } from './sm.ts';

const EVENT_ICON: Record<string, string> = {
  failover: '⇄',
  'split-brain': '✖',
  'no-master': '✖',
  'standby-lost': '▲',
  priority: '◆',
  'state-change': '◆',
  recovered: '●',
};

function SmView({ r }: { r: SmReply }) {
  const alarm = smAlarm(r.summary);
  const v = smVerdict(r.summary);
  const sms = sortSms(r.sms);
  const events = sortEvents(r.events);
  const master = sms.find((s) => s.state === 'MASTER');
  return (
    <>
      {alarm && (
        <div className={`banner tone-${alarm.tone}`} role="alert" data-testid="sm-alarm">
          {alarm.text}
        </div>
      )}
      <section className="card sm-master-card" aria-labelledby="sm-master-h">
        <h2 id="sm-master-h">Master now</h2>
        <p className="big-status">
          <Badge look={v.look} testid="sm-status" big />
        </p>
        <p className="sm-master-name" data-testid="sm-master">
          {master ? (
            <>
              <strong>{master.name ?? master.guid}</strong> <span className="mono">{master.guid}</span> · LID{' '}
              {master.lid ?? '—'} · priority {master.priority}
            </>
          ) : (
            <strong>none</strong>
          )}
        </p>
        <p className="muted">{v.detail}</p>
      </section>
      <section className="card" aria-labelledby="sm-all">
        <h2 id="sm-all">All subnet managers</h2>
        {sms.length === 0 ? (
          <Empty>No subnet manager seen by the last SM scan.</Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Host</th>
                <th scope="col">GUID</th>
                <th scope="col">LID</th>
                <th scope="col">Priority</th>
                <th scope="col">Activity</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {sms.map((s) => (
                <tr
                  key={s.guid}
                  data-testid="sm-row"
                  data-state={s.state}
                  className={s.state === 'MASTER' ? 'is-master' : undefined}
                >
                  <td>
                    <Badge
                      look={
                        s.state === 'MASTER'
                          ? { icon: '★', label: 'MASTER', tone: 'info' }
                          : s.state === 'STANDBY'
                            ? { icon: '●', label: 'STANDBY', tone: 'ok' }
                            : { icon: '◆', label: s.state, tone: 'warn' }
                      }
                    />
                  </td>
                  <td>{s.name ?? '—'}</td>
                  <td className="mono">{s.guid}</td>
                  <td>{s.lid ?? '—'}</td>
                  <td className="num">{s.priority}</td>
                  <td className="mono small">{s.activityCount ?? '—'}</td>
                  <td>
                    <Time at={s.lastSeen} short />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="sm-events">
        <h2 id="sm-events">State changes and failovers</h2>
        {events.length === 0 ? (
          <Empty>No SM state change recorded.</Empty>
        ) : (
          <ol className="timeline" data-testid="sm-timeline">
            {events.map((e) => (
              <li key={e.id} data-testid="sm-event" data-kind={e.kind}>
                <Time at={e.at} />{' '}
                <strong>
                  {EVENT_ICON[e.kind] ?? '◆'} {e.kind}
                </strong>
                {(e.fromGuid || e.toGuid) && (
                  <span>
                    {' '}
                    {smLabel(r.sms, e.fromGuid)} → {smLabel(r.sms, e.toGuid)}
                  </span>
                )}
                {e.detail && <div className="muted small">{e.detail}</div>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

export default function SmPage() {
  const state = useApi<SmReply>('/api/sms', { refreshMs: 30_000 });
  return (
    <section data-testid="sm-page">
      <h1>Subnet managers</h1>
      <Async state={state} what="subnet managers">
        {(r) => <SmView r={r} />}
      </Async>
    </section>
  );
}
