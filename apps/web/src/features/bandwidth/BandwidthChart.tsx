import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { NcclRunRow } from '@ibwatch/fabric';
import { formatShort } from '../../lib/time.ts';
import { pivotByCollective, runsToPoints, SERIES_COLOURS, SERIES_DASHES, targetsByCollective } from './series.ts';

/** busbw per collective over time, one dashed target line per collective. */
export function BandwidthChart({ runs, from, to }: { runs: NcclRunRow[]; from: number; to: number }) {
  const { rows, collectives } = pivotByCollective(runsToPoints(runs));
  const targets = targetsByCollective(runs);
  return (
    <figure className="card" data-testid="bandwidth-chart">
      <div style={{ width: '100%', height: 300 }}>
        <ResponsiveContainer>
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
            <YAxis unit=" GB/s" width={80} tick={{ fontSize: 11 }} domain={[0, 'auto']} />
            <Tooltip
              labelFormatter={(v) => formatShort(Number(v))}
              formatter={(v, name) => [`${Number(v).toFixed(1)} GB/s`, String(name)]}
            />
            <Legend />
            {collectives.map((c, i) => {
              const colour = SERIES_COLOURS[i % SERIES_COLOURS.length];
              return [
                <Line
                  key={c}
                  dataKey={c}
                  name={c}
                  stroke={colour}
                  strokeDasharray={SERIES_DASHES[i % SERIES_DASHES.length]}
                  connectNulls
                  isAnimationActive={false}
                />,
                targets[c] !== undefined ? (
                  <ReferenceLine
                    key={`${c}-target`}
                    y={targets[c]}
                    stroke={colour}
                    strokeDasharray="10 4"
                    strokeWidth={1.5}
                    label={{
                      value: `${c} target ${targets[c]} GB/s`,
                      position: 'insideBottomRight',
                      fontSize: 11,
                      fill: colour,
                    }}
                  />
                ) : null,
              ];
            })}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted small">
        Average busbw of each run; dashed horizontal lines are the targets.
      </figcaption>
    </figure>
  );
}
