import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FabricSummary, WorklistEntry } from '@ibwatch/fabric';
import { createSummaryBuilder } from '../analysis/summary.ts';
import { formatStatus, type StatusOutput } from '../cli-status.ts';
import { appOf, SAMPLE_A, testContext } from '../test-support.ts';

/**
 * One ibdiagnet run is evidence (issue 33): the real ndr-fat-tree-a run, imported once, has HCA
 * ports whose SymbolErrorCounter is pegged at 0xFFFF and more with symbol errors since their
 * last clear. The expected ports are read from the run's own PM_INFO here, not written down.
 */
interface PmRow {
  key: string;
  values: Record<string, bigint>;
}

function pmInfo(dir: string): PmRow[] {
  const lines = readFileSync(join(dir, 'ibdiagnet2.db_csv'), 'utf8').split('\n');
  const start = lines.indexOf('START_PM_INFO');
  const header = lines[start + 1]!.split(',').map((h) => h.trim());
  const out: PmRow[] = [];
  for (const line of lines.slice(start + 2)) {
    if (line.startsWith('END_PM_INFO')) break;
    const cells = line.split(',');
    const values: Record<string, bigint> = {};
    header.forEach((h, i) => {
      if (/^-?\d+$/.test(cells[i] ?? '')) values[h] = BigInt(cells[i]!);
    });
    out.push({ key: `port:${cells[0]}/${Number(cells[2])}`, values });
  }
  return out;
}

const rows = pmInfo(SAMPLE_A);
/** Pegged at 0xFFFF, its 64-bit twin not counting past it. */
const saturatedSymbol = rows
  .filter((r) => r.values.SymbolErrorCounter === 0xffffn && (r.values.SymbolErrorCounterExt ?? 0n) < 0xffffn)
  .map((r) => r.key)
  .sort();
const symbolCounts = rows.filter(
  (r) => (r.values.SymbolErrorCounter ?? 0n) > 0n && r.values.SymbolErrorCounter! < 0xffffn,
);

const ctx = testContext();
const findings = (kind: string) =>
  ctx.db
    .prepare(
      'SELECT subject_key AS key, severity, title, evidence, cleared_at AS clearedAt FROM findings WHERE kind = ?',
    )
    .all(kind) as { key: string; severity: string; title: string; evidence: string; clearedAt: number | null }[];
const summary = (): FabricSummary => createSummaryBuilder(ctx.db, ctx.names, ctx.config)(Date.now(), null);

let app: Awaited<ReturnType<typeof appOf>>;
beforeAll(async () => {
  const scan = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  expect(scan.status).toBe('partial'); // the stale .cables file: a warning, not a failure
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close(); // closes the database too
  ctx.cleanup();
});

describe('one ibdiagnet run with saturated counters (real ndr-fat-tree-a)', () => {
  it('the fixture has what the issue says: 5 pegged SymbolErrorCounters and 9 more ports with symbol errors', () => {
    expect([saturatedSymbol.length, symbolCounts.length]).toEqual([5, 9]);
  });

  it('opens a major "counter saturated" finding per pegged SymbolErrorCounter, saying how to clear', () => {
    const f = findings('counter-saturated:SymbolErrorCounter');
    expect(f.map((x) => x.key).sort()).toEqual(saturatedSymbol);
    for (const x of f) {
      expect(x.severity).toBe('major');
      expect(x.title).toMatch(
        /SymbolErrorCounter saturated on .* \(65535, its maximum\): clear the counters \(`perfquery -R \d+ 1`/,
      );
    }
  });

  it('lists each port with symbol errors since the last clear with its count, minor, as no rate', () => {
    const f = new Map(findings('errors-since-clear').map((x) => [x.key, x]));
    for (const r of symbolCounts) {
      const x = f.get(r.key);
      expect(x, r.key).toBeDefined();
      expect(x!.severity).toBe('minor');
      expect(JSON.parse(x!.evidence).counters.SymbolErrorCounter).toBe(String(r.values.SymbolErrorCounter));
      expect(x!.title).toContain('(no rate yet: one snapshot)');
    }
  });

  it('makes no finding of link downs alone (hundreds of ports count reboots since their clear)', () => {
    const onlyDowns = rows.filter(
      (r) =>
        (r.values.LinkDownedCounter ?? 0n) > 0n &&
        (r.values.SymbolErrorCounter ?? 0n) === 0n &&
        !r.values.PortRcvErrors,
    );
    expect(onlyDowns.length).toBeGreaterThan(200);
    const keys = new Set(findings('errors-since-clear').map((x) => x.key));
    expect(onlyDowns.filter((r) => keys.has(r.key))).toEqual([]);
  });

  it('the summary counts them apart from rates: 0 over threshold, rates from the next snapshot', () => {
    const s = summary();
    const noRate = new Set([
      ...findings('errors-since-clear').map((x) => x.key),
      ...(ctx.db
        .prepare("SELECT subject_key FROM findings WHERE kind LIKE 'counter-saturated:%'")
        .pluck()
        .all() as string[]),
    ]);
    expect(s).toMatchObject({
      portsOverThreshold: 0,
      portsErrorsSinceClear: noRate.size,
      counterRates: 'first-snapshot',
    });
    expect(s.portsErrorsSinceClear).toBeGreaterThanOrEqual(saturatedSymbol.length + symbolCounts.length);
    expect(s.portsSaturated).toBeGreaterThanOrEqual(saturatedSymbol.length);
    expect(s.fabricStatus.word).not.toBe('OK');
  });

  it('`ibwatch status` says the counts and that rates come from the next snapshot', () => {
    const s = summary();
    const text = formatStatus({ ...s, exitCode: 1 } as StatusOutput, Date.now()).join('\n');
    expect(text).toContain('0 ports over threshold (rates from the next snapshot)');
    expect(text).toContain(
      `counters: ${s.portsErrorsSinceClear} ports with error counts since last clear (no rate yet: one snapshot), ` +
        `${s.portsSaturated} saturated: clear counters and measure again`,
    );
  });

  it('puts the saturated ports on the worklist, measuring before reseating', async () => {
    const w = (await app.inject('/api/worklist')).json<WorklistEntry[]>();
    const ends = (e: WorklistEntry) => [e.a, e.b].flatMap((x) => (x ? [`port:${x.guid}/${x.port}`] : []));
    for (const key of saturatedSymbol) {
      const e = w.find((x) => ends(x).includes(key));
      expect(e, key).toBeDefined();
      expect(e!.severity).toBe('major');
      expect(e!.action).toMatch(/^clear the counters and measure again .* → clean and reseat both ends/);
      expect(e!.reasons.join(' ')).toContain('SymbolErrorCounter saturated: clear counters and measure again');
    }
  });
});

describe('the next snapshot of the same counters', () => {
  it('clears the no-rate counts, keeps the pegged counters (still no rate) and rates the rest', async () => {
    // The same run an hour later: only the run's own timestamp moves (the .cables file stays stale).
    const dir = join(ctx.dir, 'later');
    cpSync(SAMPLE_A, dir, { recursive: true });
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      writeFileSync(join(dir, f), text.replaceAll('2025-03-31 23:43:18', '2025-04-01 00:43:18'));
    }
    const scan = await ctx.scans.importIbdiagnet(dir, 'cli');
    expect(scan.summary).toMatchObject({ 'pm.intervalS': 3600 });
    expect(findings('errors-since-clear').every((x) => x.clearedAt !== null)).toBe(true);
    const sat = findings('counter-saturated:SymbolErrorCounter');
    expect(sat.map((x) => x.key).sort()).toEqual(saturatedSymbol);
    expect(sat.every((x) => x.clearedAt === null && x.severity === 'major')).toBe(true);
    expect(sat[0]!.title).toMatch(/rate unknown, clear the counters/);
    const s = summary();
    expect(s).toMatchObject({ counterRates: 'rated', portsOverThreshold: 0, portsSaturated: s.portsErrorsSinceClear });
    // Counts that ended because rates took over repaired nothing.
    const fixedKeys = s.recentlyFixed.map((r) => r.key);
    for (const r of symbolCounts) expect(fixedKeys.some((k) => k.includes(r.key.slice(5)))).toBe(false);
  });
});

describe('a port whose SymbolErrorCounterExt stays at 0 (every erring port of this run)', () => {
  it('gets a symbol-error rate from its classic column when new errors arrive', async () => {
    // The third run, an hour after the second: one port's classic SymbolErrorCounter rose by
    // 36,000 (10 a second); its 64-bit twin, as everywhere in this run, still reads 0.
    const port = symbolCounts.find((r) => r.values.SymbolErrorCounterExt === 0n)!;
    const [, guid, num] = /^port:(0x[0-9a-f]+)\/(\d+)$/.exec(port.key)!;
    const dir = join(ctx.dir, 'third');
    cpSync(SAMPLE_A, dir, { recursive: true });
    for (const f of readdirSync(dir)) {
      let text = readFileSync(join(dir, f), 'utf8').replaceAll('2025-03-31 23:43:18', '2025-04-01 01:43:18');
      if (f === 'ibdiagnet2.db_csv') {
        const lines = text.split('\n');
        const start = lines.indexOf('START_PM_INFO');
        const col = lines[start + 1]!.split(',').indexOf('SymbolErrorCounter');
        const at = lines.findIndex(
          (l, i) => i > start && l.startsWith(`${guid},`) && Number(l.split(',')[2]) === Number(num),
        );
        const cells = lines[at]!.split(',');
        cells[col] = String(port.values.SymbolErrorCounter! + 36_000n);
        lines[at] = cells.join(',');
        text = lines.join('\n');
      }
      writeFileSync(join(dir, f), text);
    }
    await ctx.scans.importIbdiagnet(dir, 'cli');
    const open = findings('symbol-errors').filter((x) => x.clearedAt === null);
    expect(open.map((x) => x.key)).toEqual([port.key]);
    expect(JSON.parse(open[0]!.evidence)).toMatchObject({ source: 'SymbolErrorCounter' });
  });
});
