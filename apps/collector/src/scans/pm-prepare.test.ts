import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromPortCounters, type CounterTable, type PortCounters } from '@ibwatch/fabric';
import type { Context } from '../context.ts';
import { latestTraffic } from '../metrics/registry.ts';
import { ERROR_PORT, FLAP_PORT, SAMPLE_A, seedCounters, testContext, withErrors } from '../test-support.ts';
import { runPipeline } from './pipeline.ts';
import { preparePm, storePm, type PmPrepared } from './pm-store.ts';
import { CounterBaseline, loaded } from './traffic.test-helper.ts';

// Two collectors fed the same sweeps at the same times: one stores each sweep from scratch, the
// other with the passes computed ahead of the transaction (as the scan service does), sometimes
// stale on purpose. Every stored table and what /metrics holds must come out the same.
const env = { IBWATCH_XMIT_WAIT_SWEEPS: '2', IBWATCH_TRAFFIC_RECENT_PORTS: '5' };
const plain = testContext(env);
const ahead = testContext(env);
afterAll(() => {
  plain.cleanup();
  ahead.cleanup();
});

const HOUR = 3_600_000;
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 60_000;

async function sweep(
  ctx: Context,
  baseline: CounterBaseline,
  at: number,
  table: CounterTable,
  prepare?: (b: CounterBaseline) => PmPrepared | undefined,
) {
  let prepared: PmPrepared | undefined;
  const row = await runPipeline(
    ctx.db,
    'pm',
    'cli',
    async () => {
      prepared = prepare?.(baseline);
      return { data: table, raw: [], toolVersions: {}, warnings: [] };
    },
    (id, t, c) => storePm(ctx.db, ctx.config, ctx.names, baseline, id, t, c.data, undefined, prepared),
    () => at,
  );
  if (row.status !== 'failed') baseline.commit();
  else baseline.invalidate();
  return row;
}

/** The real time each collector imported the fabric at (the sweeps run on a clock of their own, hours earlier). */
const imported = new Map<Context, [number, number]>();

/** Every user table, rows in key order; times of the import (real clock) masked, the sweeps' kept. */
function dump(ctx: Context): Record<string, unknown[]> {
  const [t0, t1] = imported.get(ctx)!;
  const inImport = (ms: number) => ms >= t0 && ms <= t1;
  const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
  const mask = (v: unknown) =>
    typeof v === 'number' && inImport(v)
      ? 'import-time'
      : typeof v === 'string'
        ? v.replace(iso, (m) => (inImport(Date.parse(m)) ? 'import-time' : m))
        : v;
  const tables = ctx.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const order = (t: string) => (ctx.db.pragma(`table_info("${t}")`) as unknown[]).map((_, i) => i + 1).join(', ');
  // The import's own scan row (its duration is the real one's) is left out; the sweeps' are compared.
  const rows = (t: string) =>
    (ctx.db.prepare(`SELECT * FROM "${t}" ORDER BY ${order(t)}`).all() as Record<string, unknown>[])
      .filter((r) => t !== 'scans' || r.kind === 'pm')
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, mask(v)])));
  return Object.fromEntries(tables.map((t) => [t, rows(t)]));
}

describe('storePm with the passes computed ahead of its transaction', () => {
  let sweeps: CounterTable[];
  beforeAll(async () => {
    for (const ctx of [plain, ahead]) {
      const t0 = Date.now();
      expect((await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli')).status).not.toBe('failed');
      imported.set(ctx, [t0, Date.now()]);
    }
    const [base] = await seedCounters();
    const other = base.find((p) => p.nodeGuid !== ERROR_PORT.nodeGuid)!;
    const words = 2_000_000_000n;
    const step = (k: bigint, more: (p: PortCounters[]) => PortCounters[] = (p) => p) =>
      more(loaded(base, ERROR_PORT, words * k, 3_000_000n * 60n * k));
    // Changing input: traffic and XmitWait grow, errors appear, a flap, a port not read, back again.
    sweeps = [
      base,
      step(1n),
      step(2n, (p) => withErrors(p, ERROR_PORT, 'SymbolErrorCounter', 40n)),
      step(3n, (p) => withErrors(p, FLAP_PORT, 'LinkDownedCounter', 1n)).filter((p) => p !== other),
      step(4n, (p) => withErrors(p, ERROR_PORT, 'SymbolErrorCounter', 90n)),
      step(5n),
      step(6n),
    ].map((p) => tableFromPortCounters(p));
  });

  it('stores exactly what the full computation stores, also when what was computed ahead is stale', async () => {
    const a = new CounterBaseline(plain.db);
    const b = new CounterBaseline(ahead.db);
    let used = 0;
    for (let i = 0; i < sweeps.length; i++) {
      const at = T0 + i * 60_000;
      expect((await sweep(plain, a, at, sweeps[i]!)).status).toBe('ok');
      // Stale on purpose: sweep 3 prepared for another sweep; sweep 5 against another baseline
      // (the same values, read again from the database); sweep 6's arrays handed out and
      // overwritten in between, as another store would.
      const prepare = (bl: CounterBaseline) => {
        const p = preparePm(i === 5 ? new CounterBaseline(ahead.db) : bl, i === 3 ? sweeps[2]! : sweeps[i]!);
        if (p) used++;
        if (i === 6) for (const arr of Object.values(bl.traffic.scratch.deltas(sweeps[i]!.rows))) arr.fill(7);
        return p;
      };
      expect((await sweep(ahead, b, at, sweeps[i]!, prepare)).status).toBe('ok');
      const [x, y] = [dump(ahead), dump(plain)];
      expect(Object.keys(x)).toEqual(Object.keys(y));
      for (const t of Object.keys(y)) expect(x[t], `${t} after sweep ${i}`).toEqual(y[t]);
      const [tp, ta] = [latestTraffic(plain.db), latestTraffic(ahead.db)];
      expect(ta?.txBps).toEqual(tp?.txBps);
      expect(ta?.rxBps).toEqual(tp?.rxBps);
      expect(ta?.waitTps).toEqual(tp?.waitTps);
    }
    // Prepared for every sweep (the import stored a baseline), and the sweeps did store something.
    expect(used).toBe(sweeps.length);
    const d = dump(plain);
    expect(d.counter_deltas!.length).toBeGreaterThan(0);
    expect(d.traffic_recent!.length).toBeGreaterThan(0);
    expect(d.findings!.length).toBeGreaterThan(0);
  });
});
