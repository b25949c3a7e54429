import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { CounterHistoryReply } from '@ibwatch/fabric';
import { Empty } from '../../components/States.tsx';
import { formatShort } from '../../lib/time.ts';
import { chartDomain, formatPerHour, niceCeil } from './chart.ts';
import { timeXAxis } from './time-axis.tsx';
import { counterSeries, RANGE_MS, stateMarkers, type Range } from './ports.ts';

const MARKER_COLOUR = { down: 'var(--crit)', up: 'var(--ok)', change: 'var(--warn)' } as const;

/** One line chart per counter on a shared time axis, thresholds and state changes drawn in. */
export function RateCharts({ hist, range, now }: { hist: CounterHistoryReply; range: Range; now: number }) {
  const { series, flat } = counterSeries(hist.points, hist.thresholds);
  const { markers } = stateMarkers(hist.stateChanges);
  const firstPoint = hist.points.reduce((m, p) => Math.min(m, p.at), Number.POSITIVE_INFINITY);
  const domain = chartDomain(
    hist.observedFrom,
    now,
    RANGE_MS[range],
    Number.isFinite(firstPoint) ? firstPoint : undefined,
  );
  const shown = markers.filter((m) => m.at >= domain[0]);
  // Only non-zero deltas are stored: no point means no error, as far back as the port was watched.
  const window =
    hist.observedFrom > now - RANGE_MS[range] ? `since ${formatShort(hist.observedFrom)}` : `in the last ${range}`;
  if (series.length === 0) {
    return (
      <Empty>
        {hist.points.length === 0
          ? `No error counter moved ${window}.`
          : `● Every error counter stayed at zero ${window} (${flat.length} counters).`}
      </Empty>
    );
  }
  return (
    <>
      <div className="chart-grid">
        {series.map((s) => (
          <figure key={s.counter} className="card chart-card" data-testid="port-rate-chart" data-counter={s.counter}>
            <h3>
              {s.counter} {s.overThreshold && <span className="badge tone-crit">▲ over threshold</span>}
            </h3>
            {s.threshold !== null && (
              <p className="small muted chart-note">
                <span className="threshold-key" aria-hidden="true" /> threshold {formatPerHour(s.threshold)}
              </p>
            )}
            <div style={{ width: '100%', height: 200 }}>
              <ResponsiveContainer>
                <LineChart data={s.rows} margin={{ top: 16, right: 16, bottom: 0, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  {timeXAxis(domain)}
                  <YAxis
                    tickFormatter={(v: number) => formatPerHour(v)}
                    width={70}
                    tick={{ fontSize: 11 }}
                    domain={[0, (max: number) => niceCeil(Math.max(max, s.threshold ?? 0) * 1.05)]}
                  />
                  <Tooltip
                    labelFormatter={(v) => formatShort(Number(v))}
                    formatter={(v) => [formatPerHour(Number(v)), 'rate']}
                  />
                  {s.threshold !== null && <ReferenceLine y={s.threshold} stroke="var(--crit)" strokeDasharray="6 3" />}
                  {shown.map((m, i) => (
                    <ReferenceLine
                      key={i}
                      x={m.at}
                      stroke={MARKER_COLOUR[m.kind]}
                      strokeDasharray={m.kind === 'down' ? '2 2' : undefined}
                      label={{
                        value: m.kind === 'down' ? '✖' : m.kind === 'up' ? '●' : '◆',
                        position: 'top',
                        fontSize: 11,
                        fill: MARKER_COLOUR[m.kind],
                      }}
                    />
                  ))}
                  <Line dataKey="rate" stroke="var(--accent)" dot={s.rows.length < 40} isAnimationActive={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </figure>
        ))}
      </div>
      {flat.length > 0 && <p className="muted small">● Stayed at zero: {flat.join(', ')}.</p>}
    </>
  );
}

export default RateCharts;
