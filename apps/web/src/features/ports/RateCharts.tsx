import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CounterHistoryReply } from '@ibwatch/fabric';
import { Empty } from '../../components/States.tsx';
import { formatShort } from '../../lib/time.ts';
import { counterSeries, formatRate, RANGE_MS, stateMarkers, type Range } from './ports.ts';

const MARKER_COLOUR = { down: 'var(--crit)', up: 'var(--ok)', change: 'var(--warn)' } as const;

/** One line chart per counter on a shared time axis, thresholds and state changes drawn in. */
export function RateCharts({ hist, range, now }: { hist: CounterHistoryReply; range: Range; now: number }) {
  const { series, flat } = counterSeries(hist.points, hist.thresholds);
  const { markers } = stateMarkers(hist.stateChanges);
  const domain: [number, number] = [now - RANGE_MS[range], now];
  if (series.length === 0) {
    return (
      <Empty>
        {hist.points.length === 0
          ? `No counter samples in the last ${range}.`
          : `● Every error counter stayed at zero in the last ${range} (${flat.length} counters).`}
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
            <div style={{ width: '100%', height: 200 }}>
              <ResponsiveContainer>
                <LineChart data={s.rows} margin={{ top: 16, right: 16, bottom: 0, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis
                    dataKey="at"
                    type="number"
                    scale="time"
                    domain={domain}
                    tickFormatter={(v: number) => formatShort(v)}
                    tick={{ fontSize: 11 }}
                  />
                  <YAxis
                    tickFormatter={(v: number) => formatRate(v)}
                    width={70}
                    tick={{ fontSize: 11 }}
                    domain={[0, (max: number) => Math.max(max, s.threshold ?? 0) * 1.1 || 1]}
                  />
                  <Tooltip
                    labelFormatter={(v) => formatShort(Number(v))}
                    formatter={(v) => [formatRate(Number(v)), 'rate']}
                  />
                  {s.threshold !== null && (
                    <ReferenceLine
                      y={s.threshold}
                      stroke="var(--crit)"
                      strokeDasharray="6 3"
                      label={{
                        value: `threshold ${formatRate(s.threshold)}`,
                        position: 'insideTopRight',
                        fontSize: 11,
                        fill: 'var(--crit)',
                      }}
                    />
                  )}
                  {markers.map((m, i) => (
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
