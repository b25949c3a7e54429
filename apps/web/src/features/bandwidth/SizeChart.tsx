import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { formatBytes, type NcclRunDetailReply } from '@ibwatch/fabric';
import { ChartCard } from './ChartCard.tsx';
import { busbwDomain, largeMessageBand, sizePoints, SERIES_COLOURS } from './series.ts';

/**
 * busbw against message size (log scale) for one run, out-of-place and in-place, with the band
 * of large messages the headline is read from and the target.
 */
export function SizeChart({ d }: { d: NcclRunDetailReply }) {
  const points = sizePoints(d.rows);
  const band = largeMessageBand(points);
  const target = d.run.targetGBs;
  const values = points.flatMap((p) => [p.outOfPlace, p.inPlace]).filter((v): v is number => v !== null);
  const domain = busbwDomain(values, target === null ? [] : [target]);
  if (points.length === 0) return null;
  const first = points[0]!.log2;
  const last = points[points.length - 1]!.log2;
  const ticks: number[] = [];
  for (let x = Math.ceil(first / 5) * 5; x <= last; x += 5) ticks.push(x);
  if (!ticks.includes(last)) ticks.push(last);
  return (
    <ChartCard
      testId="run-size-chart"
      height={280}
      caption={
        'busbw per message size (log scale). The headline is the peak over every size; the shaded band ' +
        'marks the large messages (1 GiB and up), the right end the largest size regressions compare.'
      }
    >
      <LineChart data={points} margin={{ top: 16, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="log2"
          type="number"
          domain={[first, last]}
          ticks={ticks}
          tickFormatter={(v: number) => formatBytes(2 ** v)}
          tick={{ fontSize: 11 }}
        />
        <YAxis unit=" GB/s" width={80} tick={{ fontSize: 11 }} domain={domain} />
        <Tooltip
          labelFormatter={(v) => formatBytes(2 ** Number(v))}
          formatter={(v, name) => [`${Number(v).toFixed(2)} GB/s`, String(name)]}
        />
        <Legend />
        {band && (
          <ReferenceArea
            x1={band[0]}
            x2={band[1]}
            fill="#9ca3af"
            fillOpacity={0.15}
            label={{ value: 'large messages', position: 'insideTopLeft', fontSize: 11 }}
          />
        )}
        {target !== null && (
          <ReferenceLine
            y={target}
            stroke="#dc2626"
            strokeDasharray="10 4"
            label={{ value: `target ${target} GB/s`, position: 'insideBottomLeft', fontSize: 11, fill: '#dc2626' }}
          />
        )}
        <Line
          dataKey="outOfPlace"
          name="out-of-place busbw"
          stroke={SERIES_COLOURS[0]}
          connectNulls
          isAnimationActive={false}
        />
        <Line
          dataKey="inPlace"
          name="in-place busbw"
          stroke={SERIES_COLOURS[1]}
          strokeDasharray="6 3"
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
    </ChartCard>
  );
}
