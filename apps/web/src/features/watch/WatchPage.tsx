import type { WatchEntry, WatchReply } from '@ibwatch/fabric';
import { useApi } from '../../api/useApi.ts';
import { Link } from '../../components/Link.tsx';
import { Async, Empty } from '../../components/States.tsx';
import { Time } from '../../components/Time.tsx';
import { portHref } from '../../router.ts';
import { crossingText, perHourText, trendText, watchCountText } from './watch.ts';

/** The series as a small line, threshold at the top edge: how fast it climbs towards it. */
function Spark({ e }: { e: WatchEntry }) {
  const w = 120;
  const h = 28;
  const xs = e.series.map((p) => p.at);
  const x0 = Math.min(...xs);
  const dx = Math.max(...xs) - x0 || 1;
  const pts = e.series
    .map(
      (p) =>
        `${(((p.at - x0) / dx) * w).toFixed(1)},${(h - Math.min(1, p.perHour / e.thresholdPerHour) * h).toFixed(1)}`,
    )
    .join(' ');
  return (
    <svg width={w} height={h} role="img" aria-label={`rate per bucket, top edge = major threshold`}>
      <line x1={0} y1={0.5} x2={w} y2={0.5} stroke="currentColor" strokeDasharray="3 3" opacity={0.5} />
      <polyline points={pts} fill="none" stroke="currentColor" strokeWidth={1.5} />
    </svg>
  );
}

function Row({ e, now }: { e: WatchEntry; now: number }) {
  return (
    <tr data-testid="watch-entry" data-port={e.portKey} data-counter={e.counter}>
      <td>
        <Link href={portHref(e.port.guid, e.port.port)}>
          {e.port.name} port {e.port.port}
        </Link>
      </td>
      <td>
        {e.remote ? (
          <Link href={portHref(e.remote.guid, e.remote.port)}>
            {e.remote.name} port {e.remote.port}
          </Link>
        ) : (
          <span className="muted">unknown</span>
        )}
      </td>
      <td className="mono">{e.counter}</td>
      <td className="num">
        {perHourText(e.rateNowPerHour)}
        <div className="small muted">major at {perHourText(e.thresholdPerHour)}</div>
      </td>
      <td>
        <Spark e={e} />
        <div className="small">{trendText(e)}</div>
      </td>
      <td>
        <strong>{crossingText(e.projectedCrossAt, now)}</strong>
        <div className="small muted">
          <Time at={e.projectedCrossAt} short />
        </div>
      </td>
      <td>{e.finding ?? <span className="muted">none</span>}</td>
    </tr>
  );
}

function WatchView({ r }: { r: WatchReply }) {
  const now = Date.now();
  return (
    <>
      <p className="muted" data-testid="watch-count">
        {watchCountText(r)} · error rates rising over the last {r.windowHours} h, one point per {r.bucketMinutes} min,
        slope by Theil-Sen (the median of all pairwise slopes: one burst does not make a trend)
      </p>
      {r.entries.length === 0 ? (
        <Empty>No port's error rate is rising towards its major threshold.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="watch-table">
            <thead>
              <tr>
                <th scope="col">Port</th>
                <th scope="col">Remote end</th>
                <th scope="col">Counter</th>
                <th scope="col">Rate now</th>
                <th scope="col">Trend</th>
                <th scope="col">Projected crossing</th>
                <th scope="col">Finding now</th>
              </tr>
            </thead>
            <tbody>
              {r.entries.map((e) => (
                <Row key={`${e.portKey}|${e.counter}`} e={e} now={now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export default function WatchPage() {
  const state = useApi('/api/watch', { refreshMs: 60_000 });
  return (
    <section data-testid="watch-page">
      <h1>Watch list</h1>
      <Async state={state} what="the watch list">
        {(r) => <WatchView r={r} />}
      </Async>
    </section>
  );
}
