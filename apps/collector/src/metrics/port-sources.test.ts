// The per-port families built with the inputs kept between sweeps (port-sources.ts) must be the
// very text built from scratch, after every step of a fabric that changes under them.
import { afterAll, describe, expect, it } from 'vitest';
import type { PortCounters } from '@ibwatch/fabric';
import type { Context } from '../context.ts';
import { Exposition } from './exposition.ts';
import { portFamilies } from './ports.ts';
import { cachedPortSources } from './port-sources.ts';
import { ERROR_PORT, FLAP_PORT, pmSweep, SAMPLE_B, seedCounters, testContext, withErrors } from '../test-support.ts';

const contexts: { cleanup: () => void }[] = [];
afterAll(() => contexts.forEach((c) => c.cleanup()));

const text = (ctx: Context, src?: ReturnType<typeof cachedPortSources>) => {
  const e = new Exposition();
  portFamilies(e, ctx, src);
  return e.text();
};
const lines = (body: string, prefix: string) => body.split('\n').filter((l) => l.startsWith(prefix));
const key = (p: { nodeGuid: string; portNum: number }) => `guid="${p.nodeGuid}",`;
/** A switch port of the sample other than the seeded ones, on a link. */
const OTHER_PORT = { nodeGuid: ERROR_PORT.nodeGuid, portNum: 7 };

describe.each(['problem', 'all'])('IBWATCH_METRICS_PORTS=%s: kept inputs give the full rebuild', (mode) => {
  it('after each sweep, link change and topology rescan', async () => {
    const ctx = testContext({ IBWATCH_METRICS_PORTS: mode });
    contexts.push(ctx);
    const a = await ctx.scans.importIbdiagnet((await import('../test-support.ts')).SAMPLE_A, 'cli');
    expect(a.status).not.toBe('failed');
    const src = cachedPortSources(ctx);
    const bodies: string[] = [];
    const same = () => {
      const full = text(ctx);
      expect(text(ctx, src)).toBe(full);
      bodies.push(full);
      return full;
    };
    const [counters, errored] = await seedCounters();
    let at = Date.now() - 3_600_000;
    const sweep = (c: PortCounters[]) => pmSweep(ctx, (at += 60_000), c);
    same(); // no sweep yet: the error rates' header only
    await sweep(counters);
    same();
    // Ports become problems: symbol errors on ERROR_PORT, flaps on FLAP_PORT.
    await sweep(errored);
    const s2 = same();
    expect(lines(s2, 'ibwatch_port_error_rate{').some((l) => l.includes('port="3"'))).toBe(true);
    // They leave (no increase), another port gets errors, traffic moves.
    let moved = withErrors(errored, OTHER_PORT, 'PortRcvErrors', 9n);
    moved = withErrors(moved, ERROR_PORT, 'PortXmitData', 123_456n);
    await sweep(moved);
    const s3 = same();
    expect(lines(s3, 'ibwatch_port_error_rate{').some((l) => l.includes('port="3"'))).toBe(false);
    expect(s3).not.toBe(s2);
    // A port not read by this sweep (its row is missing: the table's rows move up by one).
    const unread = moved.filter((p) => !(p.nodeGuid === FLAP_PORT.nodeGuid && p.portNum === FLAP_PORT.portNum));
    await sweep(withErrors(unread, OTHER_PORT, 'PortRcvErrors', 4n));
    same();
    // Back again, with the same rows as two sweeps ago.
    await sweep(withErrors(moved, OTHER_PORT, 'SymbolErrorCounter', 2n));
    const s5 = same();
    expect(lines(s5, 'infiniband_switch_port_symbol_error_total{').some((l) => l.includes(key(OTHER_PORT)))).toBe(true);
    // Two ports with the same port number trade places: the same port numbers row by row, other nodes.
    const i = moved.findIndex((p) => p.nodeGuid === OTHER_PORT.nodeGuid && p.portNum === OTHER_PORT.portNum);
    const j = moved.findIndex((p) => p.portNum === OTHER_PORT.portNum && p.nodeGuid !== OTHER_PORT.nodeGuid);
    const swapped = withErrors(moved, OTHER_PORT, 'SymbolErrorCounter', 3n);
    [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
    await sweep(swapped);
    same();
    // A link's health moves without a sweep: its ports become problems.
    const link = ctx.db
      .prepare("SELECT id FROM links WHERE health = 'ok' AND present = 1 ORDER BY id DESC LIMIT 1")
      .pluck()
      .get() as number;
    ctx.db.prepare("UPDATE links SET health = 'degraded', reason = 'test' WHERE id = ?").run(link);
    const s6 = same();
    if (mode === 'problem') expect(s6).not.toBe(s5);
    // A rescan of another fabric: the port set changes; then a sweep of the old counters.
    const b = await ctx.scans.importIbdiagnet(SAMPLE_B, 'cli');
    expect(b.status).not.toBe('failed');
    same();
    await sweep(withErrors(moved, OTHER_PORT, 'SymbolErrorCounter', 5n));
    same();
    await sweep(withErrors(moved, OTHER_PORT, 'SymbolErrorCounter', 6n));
    same();
    expect(new Set(bodies).size).toBeGreaterThan(6);
  }, 60_000);
});
