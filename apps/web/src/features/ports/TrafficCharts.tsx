import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { PortTrafficReply } from '@ibwatch/fabric';
import { Empty } from '../../components/States.tsx';
import { formatShort } from '../../lib/time.ts';
import { niceCeil } from './chart.ts';
import { timeXAxis } from './time-axis.tsx';
import { formatBitRate, formatTicks } from '../traffic/traffic.ts';
import { RANGE_MS, type Range } from './ports.ts';

/** Hourly points only: the hour's maximum, dashed beside the average. An element, as Recharts wants. */
function hourMax(name: string, dataKey: string, stroke: string) {
  return (
    <Line name={name} dataKey={dataKey} stroke={stroke} strokeDasharray="4 3" dot={false} isAnimationActive={false} />
  );
}

/** Utilisation (% of the link data rate, tx and rx) and XmitWait (ticks/s) on one time axis. */
export function TrafficCharts({ t, range, now }: { t: PortTrafficReply; range: Range; now: number }) {
  if (t.points.length === 0)
    return <Empty>No traffic stored for this port in the last {range} (a port without traffic is not stored).</Empty>;
  const domain: [number, number] = [Math.min(now - RANGE_MS[range], t.points[0]!.at), now];
  const x = timeXAxis(domain);
  const dot = t.points.length < 40;
  const maxPct = Math.max(...t.points.map((p) => Math.max(p.txPct, p.rxPct, p.txMaxPct ?? 0, p.rxMaxPct ?? 0)));
  const hourly = t.resolution === 'hour';
  return (
    <div className="chart-grid">
      <figure className="card chart-card" data-testid="port-traffic-chart">
        <h3>Utilisation (% of {t.linkGbps > 0 ? `${t.linkGbps} Gb/s` : 'link rate unknown'})</h3>
        <p className="small muted chart-note">{hourly ? 'hourly average (dashed: hourly maximum)' : 'every sweep'}</p>
        <div style={{ width: '100%', height: 220 }}>
          <ResponsiveContainer>
            <LineChart data={t.points} margin={{ top: 16, right: 16, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              {x}
              <YAxis
                tickFormatter={(v: number) => `${v} %`}
                width={60}
                tick={{ fontSize: 11 }}
                domain={[0, Math.min(100, niceCeil(Math.max(maxPct, 1) * 1.05))]}
                label={{ value: '% of link rate', angle: -90, position: 'insideLeft', fontSize: 11 }}
              />
              <Tooltip
                labelFormatter={(v) => formatShort(Number(v))}
                formatter={(v, name, item) => {
                  const p = item.payload as PortTrafficReply['points'][number];
                  const bps = name === 'rx %' ? p.rxBps : p.txBps;
                  return [`${Number(v)} % (${formatBitRate(bps)})`, String(name)];
                }}
              />
              <Legend />
              <Line name="tx %" dataKey="txPct" stroke="var(--accent)" dot={dot} isAnimationActive={false} />
              <Line name="rx %" dataKey="rxPct" stroke="var(--ok)" dot={dot} isAnimationActive={false} />
              {hourly && hourMax('tx max %', 'txMaxPct', 'var(--accent)')}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="card chart-card" data-testid="port-xmitwait-chart">
        <h3>PortXmitWait (ticks/s)</h3>
        <p className="small muted chart-note">time the port had data to send and no credit: congestion downstream</p>
        <div style={{ width: '100%', height: 220 }}>
          <ResponsiveContainer>
            <LineChart data={t.points} margin={{ top: 16, right: 16, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              {x}
              <YAxis
                tickFormatter={(v: number) => formatTicks(v)}
                width={70}
                tick={{ fontSize: 11 }}
                label={{ value: 'ticks/s', angle: -90, position: 'insideLeft', fontSize: 11 }}
              />
              <Tooltip
                labelFormatter={(v) => formatShort(Number(v))}
                formatter={(v, name) => [formatTicks(Number(v)), String(name)]}
              />
              <Line name="XmitWait" dataKey="waitTps" stroke="var(--warn)" dot={dot} isAnimationActive={false} />
              {hourly && hourMax('XmitWait max', 'waitMaxTps', 'var(--warn)')}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}

export default TrafficCharts;
