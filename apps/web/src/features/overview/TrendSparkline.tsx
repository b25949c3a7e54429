import { Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { SizedChart } from '../../components/SizedChart.tsx';
import type { FabricSummary } from '@ibwatch/fabric';
import { formatShort } from '../../lib/time.ts';
import { latestBySeries, pivotBySeries, SERIES_COLOURS, SERIES_DASHES } from '../bandwidth/series.ts';

/**
 * Small busbw-over-time chart for the wall screen: each run's headline (peak busbw at large
 * messages, as on the Bandwidth page), one line per collective and scope.
 */
export default function TrendSparkline({ points }: { points: FabricSummary['ncclTrend'] }) {
  const { rows, series } = pivotBySeries(points);
  const latest = latestBySeries(points);
  return (
    <figure className="sparkline" data-testid="nccl-sparkline">
      <SizedChart height={140}>
        {(width) => (
          <LineChart width={width} height={140} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <XAxis dataKey="at" type="number" domain={['dataMin', 'dataMax']} hide />
            <YAxis width={40} tick={{ fontSize: 11 }} domain={['auto', 'auto']} />
            <Tooltip labelFormatter={(v) => formatShort(Number(v))} formatter={(v) => `${Number(v).toFixed(1)} GB/s`} />
            {series.map((s, i) => (
              <Line
                key={s}
                dataKey={(row: Record<string, number>) => row[s]}
                name={s}
                stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                strokeDasharray={SERIES_DASHES[i % SERIES_DASHES.length]}
                // Small solid dots: a series of one run (a single-node check) is only its dot.
                dot={{ r: 2, strokeDasharray: '0', fill: SERIES_COLOURS[i % SERIES_COLOURS.length] }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </SizedChart>
      <figcaption className="muted">
        peak busbw, latest run:{' '}
        {series.map((s) => (
          <span key={s} className="legend-item" data-testid="nccl-sparkline-latest" data-series={s}>
            {s}: <strong>{latest[s] !== undefined ? `${latest[s].toFixed(1)} GB/s` : '—'}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
