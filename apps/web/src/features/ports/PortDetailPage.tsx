import type { CounterHistoryReply, PortDetailReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Badge } from '../../components/Badge.tsx';
import { FindingsTable } from '../../components/FindingsTable.tsx';
import { healthLook } from '../../lib/status.ts';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { enumParam, href, portHref, useLocation } from '../../router.ts';
import { formatAgo } from '../../lib/time.ts';
import { portStateText, rateCheck, RANGES, stateMarkers } from './ports.ts';
import { RateCharts } from './RateCharts.tsx';
import { TrafficCharts } from './TrafficCharts.tsx';

function list(xs: string[]): string {
  return xs.length ? xs.join(', ') : '—';
}

function Summary({ d }: { d: PortDetailReply }) {
  const p = d.port;
  const check = rateCheck(p.widthActive, p.speedActive, d.expected);
  const far = p.remote ?? p.lastRemote;
  return (
    <div className="grid-2">
      <section className="card" aria-labelledby="pd-state">
        <h2 id="pd-state">State and rate</h2>
        <p data-testid="port-health" data-health={d.health}>
          Health now: <Badge look={healthLook[d.health]} />
          {d.healthReason && <span> {d.healthReason}</span>}
        </p>
        {p.stale && (
          <p className="banner tone-warn" data-testid="port-stale">
            ◌ STALE: the latest topology scan did not reach this port. What follows is as last seen,{' '}
            <Time at={p.lastSeen} /> ({formatAgo(p.lastSeen, Date.now())}): its node may be cut off (cable dark, host
            down).
          </p>
        )}
        {check.text && (
          <p className="banner tone-warn" data-testid="port-degraded">
            ▲ DEGRADED: {check.text}
          </p>
        )}
        <dl className="kv">
          <dt>State</dt>
          <dd data-testid="port-state" data-stale={p.stale ? '1' : '0'}>
            {portStateText(p)} / {p.physState ?? '?'}
            {p.stale && <span className="stale"> ◌ stale (as of {formatAgo(p.lastSeen, Date.now())})</span>}
          </dd>
          <dt>Width</dt>
          <dd>
            <span className={check.widthDegraded ? 'mismatch' : undefined}>
              {check.widthDegraded ? '▲ ' : ''}active {p.widthActive ?? '?'}
            </span>{' '}
            · expected {d.expected.width} · enabled {list(p.widthEnabled)} · supported {list(p.widthSupported)}
          </dd>
          <dt>Speed</dt>
          <dd>
            <span className={check.speedDegraded ? 'mismatch' : undefined}>
              {check.speedDegraded ? '▲ ' : ''}active {p.speedActive ?? '?'}
            </span>{' '}
            · expected {d.expected.speed} · enabled {list(p.speedEnabled)} · supported {list(p.speedSupported)}
          </dd>
          <dt>LID</dt>
          <dd>{p.lid ?? '—'}</dd>
          <dt>Rack</dt>
          <dd>{p.rack ?? '—'}</dd>
          <dt>Last seen</dt>
          <dd>
            <Time at={p.lastSeen} />
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="pd-remote">
        <h2 id="pd-remote">Remote end and cable</h2>
        <dl className="kv">
          <dt>Remote</dt>
          <dd data-testid="port-remote">
            {p.remote ? (
              <Link href={portHref(p.remote.guid, p.remote.port)}>
                {p.remote.name} port {p.remote.port}
              </Link>
            ) : p.lastRemote ? (
              <>
                <span className="mismatch">not connected</span> — last seen connected to{' '}
                <Link href={portHref(p.lastRemote.guid, p.lastRemote.port)}>
                  {p.lastRemote.name} port {p.lastRemote.port}
                </Link>{' '}
                at <Time at={p.lastRemote.lastSeen} />
              </>
            ) : (
              <span className="muted">{p.unused ? 'never cabled (unused port)' : 'not connected'}</span>
            )}
          </dd>
          {far && (
            <>
              <dt>Remote GUID</dt>
              <dd className="mono">{far.guid}</dd>
              <dt>Remote LID / rack</dt>
              <dd>
                {far.lid ?? '—'} / {far.rack ?? '—'}
              </dd>
            </>
          )}
          <dt>Cable</dt>
          <dd data-testid="port-cable">
            {d.cable
              ? [
                  d.cable.vendor,
                  d.cable.partNumber,
                  d.cable.serialNumber && `SN ${d.cable.serialNumber}`,
                  d.cable.lengthM !== undefined && `${d.cable.lengthM} m`,
                ]
                  .filter(Boolean)
                  .join(' · ') || 'no details'
              : 'no cable information'}
          </dd>
        </dl>
      </section>
    </div>
  );
}

function History({ hist, range }: { hist: CounterHistoryReply; range: (typeof RANGES)[number] }) {
  const now = Date.now();
  const { markers, flaps } = stateMarkers(hist.stateChanges);
  return (
    <>
      <RateCharts hist={hist} range={range} now={now} />
      <section className="card" aria-labelledby="pd-changes">
        <h2 id="pd-changes">
          State changes ({markers.length}, {flaps} down)
        </h2>
        {markers.length === 0 ? (
          <p className="muted">No state change in the last {range}.</p>
        ) : (
          <ul data-testid="port-state-changes">
            {markers.map((m, i) => (
              <li key={i} className={m.kind === 'down' ? 'tone-crit' : undefined}>
                <Time at={m.at} /> — {m.label}
              </li>
            ))}
          </ul>
        )}
        <p className="muted small">Resolution: {hist.resolution === 'hour' ? 'hourly roll-up' : 'every sweep'}.</p>
      </section>
    </>
  );
}

export default function PortDetailPage({ guid, port }: { guid: string; port: number }) {
  const { query, path } = useLocation();
  const range = enumParam(query, 'range', RANGES, '24h');
  const base = `/api/ports/${encodeURIComponent(guid)}/${port}` as const;
  const detail = useApi(base);
  const hist = useApi(`${base}/counters${href('', { range })}`);
  const traffic = useApi(`${base}/traffic${href('', { range })}`);
  // A port the collector does not know (404) or an address that is not one (400): one message,
  // not the same 404 once per section of a page that has nothing to show.
  if (detail.error && (detail.error.status === 404 || detail.error.status === 400) && !detail.data) {
    return (
      <section data-testid="port-detail">
        <h1>No such port</h1>
        <div className="state state-empty" data-testid="port-not-found" role="alert">
          <p>
            {detail.error.status === 404 ? (
              <>
                This fabric has no port {port} on <code>{guid}</code>.
              </>
            ) : (
              <>
                <code>{guid}</code> port {port} is not a port address ({detail.error.message}).
              </>
            )}
          </p>
          <p>
            <Link href="/ports">← Back to the port list</Link> to find it by name, GUID or LID.
          </p>
        </div>
      </section>
    );
  }
  return (
    <section data-testid="port-detail">
      <p className="muted small">
        <Link href="/ports">← Ports</Link>
      </p>
      <h1>
        {detail.data?.port.name ?? guid} · port {port}
      </h1>
      <Async state={detail} what="port">
        {(d) => <Summary d={d} />}
      </Async>
      <div className="page-head">
        <h2>Error counter rates (per hour)</h2>
        <nav className="range-picker" aria-label="Time range">
          {RANGES.map((r) => (
            <Link
              key={r}
              href={href(path, { ...query, range: r })}
              aria-current={r === range ? 'true' : undefined}
              data-testid={`range-${r}`}
            >
              {r}
            </Link>
          ))}
        </nav>
      </div>
      <Async state={hist} what="counter history">
        {(h) => <History hist={h} range={range} />}
      </Async>
      <h2>Traffic and congestion</h2>
      <Async state={traffic} what="traffic">
        {(t) => <TrafficCharts t={t} range={range} now={Date.now()} />}
      </Async>
      <h2>Findings history</h2>
      <Async state={detail} what="findings">
        {(d) =>
          d.findings.length ? <FindingsTable rows={d.findings} /> : <Empty>No findings ever raised on this port.</Empty>
        }
      </Async>
    </section>
  );
}
