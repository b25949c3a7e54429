// Shared by the traffic tests: counters with traffic and XmitWait added, and sweeps through one
// baseline held across sweeps (as the scan service holds it), committed like the service does.
import type { PortCounters, ScanRow } from '@ibwatch/fabric';
import type { Context } from '../context.ts';
import { CounterBaseline } from './counter-baseline.ts';
import { runPipeline } from './pipeline.ts';
import { storePm } from './pm-store.ts';
import { withErrors } from '../test-support.ts';

/** `base` with `words` data words sent (half as many received) and `ticks` XmitWait on `port` (and twins). */
export function loaded(
  base: PortCounters[],
  port: { nodeGuid: string; portNum: number },
  words: bigint,
  ticks: bigint,
): PortCounters[] {
  const sent = withErrors(base, port, 'PortXmitData', words);
  return withErrors(withErrors(sent, port, 'PortRcvData', words / 2n), port, 'PortXmitWait', ticks);
}

/** A PM sweep at `at` through `baseline`, committed or invalidated as the scan service does. */
export async function sweepWith(
  ctx: Context,
  baseline: CounterBaseline,
  at: number,
  counters: PortCounters[],
): Promise<ScanRow> {
  const row = await runPipeline(
    ctx.db,
    'pm',
    'cli',
    async () => ({ data: counters, raw: [], toolVersions: {}, warnings: [] }),
    (id, t, c) => storePm(ctx.db, ctx.config, ctx.names, baseline, id, t, c.data),
    () => at,
  );
  if (row.status !== 'failed') baseline.commit();
  else baseline.invalidate();
  return row;
}

export { CounterBaseline };
