import {
  deltasFromToolDelta,
  tableRow,
  type CounterTable,
  type FabricSnapshot,
  type PortCounters,
} from '@ibwatch/fabric';
import type { Db } from '../db/open-db.ts';
import type { Config } from '../config.ts';
import type { NameBook } from '../names.ts';
import { createCablesRepo } from '../db/cables-repo.ts';
import { storeTopology } from './topology-store.ts';
import { storePm } from './pm-store.ts';
import { STORED_COLUMNS, type CounterBaseline } from './counter-baseline.ts';
import { storeSm } from './sm-store.ts';
import { createSmRepo } from '../db/sm-repo.ts';
import { storeIbdiagnetChecks } from './ibdiagnet-checks-store.ts';

/**
 * One ibdiagnet run (live or imported) is a topology, a PM sweep and an SM observation at
 * once. Its counters are lifetime totals: they only become rates against an earlier sample
 * of the same port, so an archived run older than the current baseline stores topology but not
 * counters (its totals would read as a reset), nor SMs when they were observed since.
 */
export function storeIbdiagnet(
  db: Db,
  config: Config,
  names: NameBook,
  baseline: CounterBaseline,
  scanId: number,
  at: number,
  snap: FabricSnapshot,
): Record<string, number | string> {
  const takenAt = snap.takenAt ? Date.parse(snap.takenAt) : NaN;
  const runAt = Number.isFinite(takenAt) ? takenAt : at;
  const topo = storeTopology(
    db,
    config,
    names,
    scanId,
    at,
    { nodes: snap.nodes, ports: snap.ports, links: snap.links },
    baseline,
  );
  const base = baseline.load();
  let pm: Record<string, number> = {};
  // PM_DELTA matters only where a kept counter moved during ibdiagnet's sleep: a few rows, made
  // records; turning all 63k rows into records first was a second of a 10k-GPU import.
  const toolDeltas = snap.counterDeltas?.ports.rows
    ? deltasFromToolDelta(movedRows(snap.counterDeltas.ports), snap.counterDeltas.intervalSeconds ?? 1)
    : undefined;
  if (snap.counters.rows && runAt > base.at)
    pm = storePm(db, config, names, baseline, scanId, runAt, snap.counters, toolDeltas);
  // The run's SMs as observed when it ran; an archived run older than the latest SM observation
  // says nothing about the SMs now (it would bring a dead standby back to life).
  const smObservedAt = createSmRepo(db).observedAt();
  const sm =
    snap.sms.length && (smObservedAt === null || runAt > smObservedAt)
      ? storeSm(db, config, names, scanId, runAt, snap.sms)
      : {};
  createCablesRepo(db).store(snap.cables, at);
  const checks = storeIbdiagnetChecks(db, names, scanId, at, runAt, snap);
  return {
    takenAt: snap.takenAt ?? '',
    ...prefix('topology', topo),
    ...prefix('pm', pm),
    ...prefix('sm', sm),
    cables: snap.cables.length,
    toolFindings: snap.toolFindings.length,
    ...prefix('checks', checks),
  };
}

/** Rows with a non-zero kept counter (or 64-bit twin), as records. */
export function movedRows(t: CounterTable): PortCounters[] {
  const n = t.rows;
  const moved = new Uint8Array(n);
  // ~40 columns of 272k cells at 45k GPUs, nearly all 0: a loop over each took ~40 ms of every
  // import (it runs once per import, mostly before V8 optimises it). A column that is 0 in every
  // cell moves no row; a native compare finds those without the loop.
  const zeros = Buffer.alloc(n * 4);
  let some = false;
  for (const c of t.columns) {
    if (!STORED_COLUMNS.has(c.name) || (allZero(c.hi, n, zeros) && allZero(c.lo, n, zeros))) continue;
    some = true;
    const { hi, lo, absent } = c;
    for (let r = 0; r < n; r++) if ((hi[r]! | lo[r]!) !== 0 && (absent === undefined || absent[r] !== 1)) moved[r] = 1;
  }
  const out: PortCounters[] = [];
  if (some) for (let r = 0; r < n; r++) if (moved[r]) out.push(tableRow(t, r));
  return out;
}

/** Whether the first `n` values of `a` are all 0; `zeros` is `n` zero values (n * 4 bytes). */
function allZero(a: Uint32Array, n: number, zeros: Buffer): boolean {
  return Buffer.from(a.buffer, a.byteOffset, n * 4).equals(zeros);
}

function prefix(p: string, o: Record<string, number | string>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [`${p}.${k}`, v]));
}
