/**
 * One PM sweep of the whole fabric through the collector, after a baseline sweep:
 * - `storePm` alone (deltas, rules, findings, counter_last, sparse deltas + rollups) inside a
 *   transaction like the pipeline's, rolled back after each run so every run sees the same state;
 * - its floor: the same rows inserted raw — one counter_last upsert per port (JSON prepared in
 *   advance) + the sweep's delta inserts and rollup upserts as plain prepared statements, one
 *   transaction, also rolled back;
 * - the whole scan (`ctx.scans.run('pm')`: parse both ibqueryerrors outputs + store).
 */
import { benchFabric, sizeLabel } from '../lib/fabric.ts';
import { FakeFabricTools } from '../lib/fake-tools.ts';
import { benchConfig, type Stage } from '../lib/stage.ts';
import { median, times, type Row } from '../lib/stats.ts';
import { createContext } from '../../apps/collector/src/context.ts';
import { createDiagsSource } from '../../apps/collector/src/sources/diags.ts';
import { CounterBaseline, storePm } from '../../apps/collector/src/scans/pm-store.ts';
import { createScansRepo } from '../../apps/collector/src/db/scans-repo.ts';

class Rollback extends Error {}

export const pmStage: Stage = async (ctx) => {
  const rows: Row[] = [];
  for (const gpus of ctx.sizes) {
    const f = benchFabric(gpus);
    const big = gpus === ctx.big;
    const runs = big ? ctx.runs : 3;
    const tools = new FakeFabricTools(f);
    const dir = ctx.tmp(`pm-${gpus}`);
    const config = benchConfig(dir);
    const c = createContext(config, { runner: tools.runner() });
    ctx.log(`${gpus / 1000}k: topology scan + baseline sweep`);
    for (const k of ['topology', 'sm', 'pm'] as const) {
      const r = await c.scans.run(k, 'cli');
      if (r.status === 'failed') throw new Error(`${k} scan failed: ${r.error}`);
    }
    // Whole scans: pre-rendered sweeps, so the generator is not timed.
    tools.prerender(runs);
    const scanMs = await times(runs, async () => {
      const r = await c.scans.run('pm', 'cli');
      if (r.status === 'failed') throw new Error(`pm scan failed: ${r.error}`);
    });

    // storePm alone, on the next sweep's parsed counters, against a committed baseline.
    const diags = createDiagsSource(tools.runner(), async () => ({ env: {} }));
    const p2n = new Map(f.cas.map((n) => [n.portGuid!, n.guid]));
    const baseline = new CounterBaseline(c.db);
    const sweep = (await diags.collectPm(p2n)).data;
    const at = baseline.load().at + 60_000;
    let summary: Record<string, number> = {};
    const scans = createScansRepo(c.db);
    const inTx = (fn: (scanId: number) => void) => {
      try {
        c.db.transaction(() => { fn(scans.start('pm', 'cli', at)); throw new Rollback(); })();
      } catch (e) {
        if (!(e instanceof Rollback)) throw e;
      }
    };
    const storeMs = await times(runs, () => inTx((id) => { summary = storePm(c.db, config, c.names, baseline, id, at, sweep); }), 1);

    // Floor: the same rows, raw.
    const portIds = c.db.prepare('SELECT id FROM ports ORDER BY id').pluck().all() as number[];
    const json = sweep.map((p) => JSON.stringify(Object.fromEntries(Object.entries(p.counters).map(([k, v]) => [k, String(v)]))));
    const nDeltas = summary.deltasStored ?? 0;
    const upLast = c.db.prepare('INSERT INTO counter_last (port_id, at, scan_id, vals) VALUES (?, ?, ?, ?) ON CONFLICT (port_id) DO UPDATE SET at = excluded.at, scan_id = excluded.scan_id, vals = excluded.vals');
    const insDelta = c.db.prepare('INSERT INTO counter_deltas (port_id, counter_id, at, interval_s, delta, scan_id) VALUES (?, ?, ?, ?, ?, ?)');
    const upRoll = c.db.prepare('INSERT INTO counter_rollups (port_id, counter_id, hour, delta) VALUES (?, ?, ?, ?) ON CONFLICT (port_id, counter_id, hour) DO UPDATE SET delta = delta + excluded.delta');
    const floorMs = await times(runs, () => inTx((id) => {
      for (let i = 0; i < json.length; i++) upLast.run(portIds[i % portIds.length], at, id, json[i]);
      for (let i = 0; i < nDeltas; i++) {
        insDelta.run(portIds[i * 37 % portIds.length], 1 + (i % 5), at, 60, 17, id);
        upRoll.run(portIds[i * 37 % portIds.length], 1 + (i % 5), Math.floor(at / 3_600_000) * 3_600_000, 17);
      }
    }), 1);
    const size = `${sizeLabel(f)}; ${nDeltas} deltas, ${summary.portsWithErrors ?? 0} ports w/ errors`;
    rows.push({ stage: 'pm-ingest', what: 'storePm: one sweep (deltas, rules, findings)', size, value: median(storeMs), unit: 'ms', runs,
      floor: { what: 'same rows raw into SQLite', value: median(floorMs) }, ...(big ? { target: { op: '<' as const, value: 1000 }, ratioMax: 2 } : {}) });
    rows.push({ stage: 'pm-ingest', what: 'PM scan: parse 2 ibqueryerrors outputs + store', size: sizeLabel(f), value: median(scanMs), unit: 'ms', runs });
    c.db.close();
  }
  return rows;
};
