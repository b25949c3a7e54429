import { XAxis } from 'recharts';
import { formatShort } from '../../lib/time.ts';
import { tickLabel, timeTicks } from './chart.ts';

/**
 * The x axis every port chart shares: time over the chosen range, the same ticks and labels, so
 * the error-rate and traffic charts of one port line up. An element, not a component: Recharts
 * finds its axes among the chart's direct children by type.
 */
export function timeXAxis(domain: [number, number]) {
  const span = domain[1] - domain[0];
  return (
    <XAxis
      dataKey="at"
      type="number"
      scale="time"
      domain={domain}
      ticks={timeTicks(domain[0], domain[1])}
      allowDataOverflow
      tickFormatter={(v: number) => tickLabel(formatShort(v), span)}
      tick={{ fontSize: 11 }}
    />
  );
}
