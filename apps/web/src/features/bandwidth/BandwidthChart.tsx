import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { NcclRunRow } from '@ibwatch/fabric';
import { ChartCard } from './ChartCard.tsx';
import { formatShort } from '../../lib/time.ts';
import { busbwDomain, pivotBySeries, runsToPoints, SERIES_COLOURS, SERIES_DASHES, targetsBySeries } from './series.ts';

/** Each run's headline busbw over time, one line per collective and scope, its target dashed. */
export function BandwidthChart({ runs, from, to }: { runs: NcclRunRow[]; from: number; to: number }) {
  const points = runsToPoints(runs);
  const { rows, series } = pivotBySeries(points);
  const targets = targetsBySeries(runs);
  const domain = busbwDomain(
    points.map((p) => p.busbwGBs),
    series.flatMap((s) => (targets[s] === undefined ? [] : [targets[s]])),
  );
  return (
    <ChartCard
      testId="bandwidth-chart"
      height={300}
      data={{ 'data-y-max': domain[1] }}
      caption={
        "Each run's peak busbw at the time it ran; dashed horizontal lines are the targets, drawn for a " +
        'series whose judged runs share one target (runs of other hardware have their own, in the table).'
      }
    >
      <LineChart data={rows} margin={{ top: 16, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="at"
          type="number"
          scale="time"
          domain={[from, to]}
          tickFormatter={(v: number) => formatShort(v)}
          tick={{ fontSize: 11 }}
        />
        <YAxis unit=" GB/s" width={80} tick={{ fontSize: 11 }} domain={domain} />
        <Tooltip
          labelFormatter={(v) => formatShort(Number(v))}
          formatter={(v, name) => [`${Number(v).toFixed(1)} GB/s`, String(name)]}
        />
        <Legend />
        {series.map((s, i) => {
          const colour = SERIES_COLOURS[i % SERIES_COLOURS.length];
          return [
            <Line
              key={s}
              dataKey={(row: Record<string, number>) => row[s]}
              name={s}
              stroke={colour}
              strokeDasharray={SERIES_DASHES[i % SERIES_DASHES.length]}
              // A solid dot whatever the line's dashes: a series of one run is only its dot.
              dot={{ r: 3, strokeDasharray: '0', fill: colour }}
              connectNulls
              isAnimationActive={false}
            />,
            targets[s] !== undefined ? (
              <ReferenceLine
                key={`${s}-target`}
                y={targets[s]}
                stroke={colour}
                strokeDasharray="10 4"
                strokeWidth={1.5}
                label={{
                  value: `${s} target ${targets[s]} GB/s`,
                  position: 'insideTopRight',
                  fontSize: 11,
                  fill: colour,
                }}
              />
            ) : null,
          ];
        })}
      </LineChart>
    </ChartCard>
  );
}
