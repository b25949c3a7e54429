import type { SmReply } from '@ibwatch/fabric';
import { api } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { TokenHint, WriteButton } from '../../components/WriteButton.tsx';
import { smVerdict } from '../overview/overview.ts';
import { SmLogTimeline } from './SmLogTimeline.tsx';
import { designationSource, eventLook, smAlarms, smPlace, smStateLook, sortEvents, sortSms } from './sm.ts';
import './sm.css';

function Freshness({ r }: { r: SmReply }) {
  const failed = r.lastScan?.status === 'failed' ? r.lastScan : null;
  return (
    <>
      {failed && (
        <div className="banner tone-warn" role="alert" data-testid="sm-scan-failed">
          ✖ The last SM scan failed at <Time at={failed.finishedAt ?? failed.startedAt} />: {failed.error}. What is
          shown was observed at <Time at={r.summary.observedAt} />.
        </div>
      )}
      <p className="muted" data-testid="sm-observed-at">
        As observed at <Time at={r.summary.observedAt} />
      </p>
    </>
  );
}

function SmTable({ r }: { r: SmReply }) {
  const sms = sortSms(r.sms);
  if (sms.length === 0) return <Empty>No subnet manager has been seen yet.</Empty>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">State</th>
            <th scope="col">Host / port</th>
            <th scope="col">Role</th>
            <th scope="col">GUID</th>
            <th scope="col">LID</th>
            <th scope="col">Priority</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {sms.map((s) => (
            <tr
              key={s.guid}
              data-testid="sm-row"
              data-guid={s.guid}
              data-state={s.state}
              data-answering={s.answering ? '1' : '0'}
              data-designated={s.designated ? '1' : '0'}
              className={s.answering && s.state === 'MASTER' ? 'is-master' : undefined}
            >
              <td>
                <Badge look={smStateLook(s)} />
                {!s.answering && <div className="muted small">last {s.state}</div>}
              </td>
              <td>
                {smPlace(s)}
                {s.rack && <div className="muted small">rack {s.rack}</div>}
              </td>
              <td>
                <Badge
                  look={
                    s.designated
                      ? { icon: '●', label: 'designated', tone: 'ok' }
                      : { icon: '✖', label: 'ROGUE', tone: 'crit' }
                  }
                />
              </td>
              <td className="mono small">{s.guid}</td>
              <td>{s.lid ?? '—'}</td>
              <td className="num">{s.priority}</td>
              <td data-testid="sm-last-seen">
                {s.answering ? (
                  <>
                    now{' '}
                    <span className="muted small">
                      (<Time at={s.lastSeen} short />)
                    </span>
                  </>
                ) : (
                  <strong>
                    not seen since <Time at={s.lastSeen} />
                  </strong>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Designation({ r, reload }: { r: SmReply; reload: () => void }) {
  const d = r.designation;
  const nameOf = (guid: string) => r.sms.find((s) => s.guid === guid || s.nodeGuid === guid);
  return (
    <section className="card" aria-labelledby="sm-designated" data-testid="sm-designation" data-source={d.source}>
      <h2 id="sm-designated">Designated SM ports</h2>
      <p>
        An SM answering anywhere else is a <strong>rogue SM</strong> (critical). The list is{' '}
        <strong>{designationSource(d)}</strong>
        {d.source === 'learned' && (
          <>
            {' '}
            at <Time at={d.learnedAt} />
          </>
        )}
        .{d.relearnPending && ' A re-learn is pending: the next SM scan that sees an SM sets the list.'}
      </p>
      {d.guids.length > 0 && (
        <ul data-testid="sm-designated-list">
          {d.guids.map((g) => {
            const sm = nameOf(g);
            return (
              <li key={g}>
                <span className="mono">{g}</span> {sm ? smPlace(sm) : ''}
                {d.neverSeen.includes(g) && <strong> — never answered</strong>}
              </li>
            );
          })}
        </ul>
      )}
      {d.source !== 'config' && (
        <div className="actions">
          <WriteButton
            label="Re-learn from the SMs answering now"
            busyLabel="Scanning…"
            testid="sm-relearn"
            action={() => api.post('/api/sms/relearn')}
            onDone={reload}
          />
          <p className="muted small">
            The SMs answering the next SM scan become the designated ones; SMs not answering then are forgotten (for a
            decommissioned SM host). A rogue SM answering then would be designated too.
          </p>
          <TokenHint />
        </div>
      )}
    </section>
  );
}

function Timeline({ r }: { r: SmReply }) {
  const events = sortEvents(r.events);
  if (events.length === 0) return <Empty>No SM state change recorded.</Empty>;
  return (
    <ol className="timeline" data-testid="sm-timeline">
      {events.map((e) => {
        const look = eventLook(e.kind);
        return (
          <li key={e.id} data-testid="sm-event" data-kind={e.kind}>
            <Time at={e.at} /> <Badge look={look} /> <span className="sm-event-detail">{e.detail}</span>
            {e.kind === 'failover' && e.after !== null && (
              <div className="muted small">
                between <Time at={e.after} /> and <Time at={e.at} />
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function SmView({ r, reload }: { r: SmReply; reload: () => void }) {
  const v = smVerdict(r.summary);
  const master = r.sms.find((s) => s.answering && s.state === 'MASTER' && s.guid === r.summary.masterGuid);
  return (
    <>
      {smAlarms(r.summary, r.sms).map((a) => (
        <div
          key={a.kind + a.text}
          className={`banner tone-${a.tone}`}
          role="alert"
          data-testid="sm-alarm"
          data-kind={a.kind}
        >
          {a.text}
        </div>
      ))}
      <Freshness r={r} />
      <section className="card sm-master-card" aria-labelledby="sm-master-h">
        <h2 id="sm-master-h">Master now</h2>
        <p className="big-status">
          <Badge look={v.look} testid="sm-status" big />
        </p>
        <p className="sm-master-name" data-testid="sm-master">
          {master ? (
            <>
              <strong>{smPlace(master)}</strong> <span className="mono">{master.guid}</span> · LID {master.lid ?? '—'} ·
              priority {master.priority}
              {!master.designated && <strong> · ROGUE</strong>}
            </>
          ) : (
            <strong>none</strong>
          )}
        </p>
        <p className="muted">{v.detail}</p>
      </section>
      <section className="card" aria-labelledby="sm-all">
        <h2 id="sm-all">All subnet managers</h2>
        <SmTable r={r} />
      </section>
      <Designation r={r} reload={reload} />
      <section className="card" aria-labelledby="sm-events">
        <h2 id="sm-events">Failovers and state changes</h2>
        <Timeline r={r} />
      </section>
      <SmLogTimeline />
    </>
  );
}

export default function SmPage() {
  const state = useApi('/api/sms', { refreshMs: 15_000 });
  return (
    <section data-testid="sm-page">
      <h1>Subnet managers</h1>
      <Async state={state} what="subnet managers">
        {(r) => <SmView r={r} reload={state.reload} />}
      </Async>
    </section>
  );
}
