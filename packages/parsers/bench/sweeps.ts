/**
 * The sparse PM error model behind every generated sweep (stated in the README's performance
 * section). Per 60-s sweep of a fabric with P cabled ports:
 * - a fixed pool of 0.5% "marginal" ports; 0.1% of P (drawn from the pool) gain 1-200 symbol
 *   errors, a fifth of those also a link error recovery;
 * - 0.02% of P gain PortRcvErrors, 0.02% gain PortXmitDiscards (any port);
 * - one link flap (LinkDownedCounter + 1 on both ends) every 100 sweeps;
 * - 1% of P are congested (PortXmitWait grows); the congested set moves every 60 sweeps;
 * - data and packet counters grow on every port, every sweep.
 * Values are cumulative (what the tools print), deterministic in (fabric, sweep).
 */
import { seededRandom } from '@ibwatch/fabric';
import type { BenchFabric } from './fabric.ts';

/** Per-sweep increments of one sweep: connected-port index -> counter -> increment. */
export type SweepIncrements = Map<number, Record<string, number>>;

export function sweepIncrements(f: BenchFabric, sweep: number): SweepIncrements {
  const P = f.connected.length;
  const r = seededRandom(0x1b + sweep * 7919);
  const pool = seededRandom(42);
  const marginal = Array.from({ length: Math.max(1, Math.round(P * 0.005)) }, () => Math.floor(pool() * P));
  const out: SweepIncrements = new Map();
  const add = (i: number, c: string, v: number): void => {
    let o = out.get(i);
    if (!o) out.set(i, (o = {}));
    o[c] = (o[c] ?? 0) + v;
  };
  for (let k = 0; k < Math.max(1, Math.round(P * 0.001)); k++) {
    const i = marginal[Math.floor(r() * marginal.length)]!;
    add(i, 'SymbolErrorCounter', 1 + Math.floor(r() * 200));
    if (r() < 0.2) add(i, 'LinkErrorRecoveryCounter', 1);
  }
  for (let k = 0; k < Math.round(P * 0.0002); k++) add(Math.floor(r() * P), 'PortRcvErrors', 1 + Math.floor(r() * 20));
  for (let k = 0; k < Math.round(P * 0.0002); k++)
    add(Math.floor(r() * P), 'PortXmitDiscards', 1 + Math.floor(r() * 50));
  if (sweep % 100 === 99) {
    const i = Math.floor(r() * P);
    add(i, 'LinkDownedCounter', 1);
    const p = f.connected[i]!;
    const j = f.connected.findIndex((q) => q.node === p.peer!.node && q.port === p.peer!.port);
    if (j >= 0) add(j, 'LinkDownedCounter', 1);
  }
  const hot = seededRandom(1000 + Math.floor(sweep / 60));
  for (let k = 0; k < Math.round(P * 0.01); k++)
    add(Math.floor(hot() * P), 'PortXmitWait', 1000 + Math.floor(r() * 100_000));
  return out;
}

/**
 * Cumulative counters across sweeps 0..n: `advance()` applies the next sweep's increments.
 * Only ports with any error are held; data counters are a formula of (port, sweep).
 */
export class SweepState {
  sweep = -1;
  readonly errors = new Map<number, Record<string, number>>();
  constructor(readonly fabric: BenchFabric) {}

  advance(): SweepIncrements {
    this.sweep++;
    const inc = sweepIncrements(this.fabric, this.sweep);
    for (const [i, o] of inc) {
      const cur = this.errors.get(i) ?? {};
      for (const k in o) cur[k] = (cur[k] ?? 0) + o[k]!;
      this.errors.set(i, cur);
    }
    return inc;
  }

  /** Data counters (4-byte words / packets) of connected port `i` at the current sweep. */
  data(i: number): { xd: number; rd: number; xp: number; rp: number } {
    const s = this.sweep + 1;
    const base = 1_000_000 + (i % 997) * 1013;
    return {
      xd: base * 64 + s * 2_500_000,
      rd: base * 64 + s * 2_400_000 + i,
      xp: base + s * 40_000,
      rp: base + s * 39_000,
    };
  }
}
