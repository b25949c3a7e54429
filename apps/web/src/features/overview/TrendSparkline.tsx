import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FabricSummary } from '@ibwatch/fabric';
import { formatShort } from '../../lib/time.ts';
import { latestByCollective, pivotByCollective, SERIES_COLOURS, SERIES_DASHES } from '../bandwidth/series.ts';

/** Small busbw-over-time chart for the wall screen (one line per collective). */
export default function TrendSparkline({ points }: { points: FabricSummary['ncclTrend'] }) {
  const { rows, collectives } = pivotByCollective(points);
  const latest = latestByCollective(points);
  return (
    <figure className="sparkline" data-testid="nccl-sparkline">
      <div style={{ width: '100%', height: 140 }}>
        <ResponsiveContainer>
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <XAxis dataKey="at" type="number" domain={['dataMin', 'dataMax']} hide />
            <YAxis width={40} tick={{ fontSize: 11 }} domain={['auto', 'auto']} />
            <Tooltip labelFormatter={(v) => formatShort(Number(v))} formatter={(v) => `${Number(v).toFixed(1)} GB/s`} />
            {collectives.map((c, i) => (
              <Line
                key={c}
                dataKey={c}
                stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                strokeDasharray={SERIES_DASHES[i % SERIES_DASHES.length]}
                dot={false}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">
        {collectives.map((c) => (
          <span key={c} className="legend-item">
            {c}: <strong>{latest[c] !== undefined ? `${latest[c].toFixed(1)} GB/s` : '—'}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
