/**
 * Integration: a PM sweep discovers the live lab once (`ibnetdiscover --cache`) and both
 * ibqueryerrors runs load that snapshot (`--load-cache`). What they read must be what the two
 * runs read when each discovers the fabric itself: the same ports, the same error counters.
 * The snapshot is taken with 8 SMPs in flight (`-o 8`), the discovering runs with the tools'
 * default of 2. A snapshot that cannot be taken leaves the sweep to the discovering runs (with
 * the window), and says so.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableToPortCounters, type CounterTable } from '@ibwatch/fabric';
import { setCounter } from '@ibwatch/lab';
import { iteratePortGuids } from '../src/db/graph-queries.ts';
import { createDiagsSource } from '../src/sources/diags.ts';
import { toolEnvProvider } from '../src/sources/tool-env.ts';
import type { ToolRunner } from '../src/sources/tool-runner.ts';
import { startHarness, type Harness } from './lab-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
}, 30_000);

/** The runner's calls as `tool args`, version probes left out. */
function recording(runner: ToolRunner, calls: string[]): ToolRunner {
  return {
    run: (tool, args, opts) => {
      if (args[0] !== '-V') calls.push([tool, ...args].join(' '));
      return runner.run(tool, args, opts);
    },
  };
}

/** Each port read, with its error counters (data counters move with every MAD the tools send). */
function errorsByPort(t: CounterTable): Map<string, Record<string, bigint>> {
  const out = new Map<string, Record<string, bigint>>();
  for (const p of tableToPortCounters(t)) {
    const errors = Object.fromEntries(Object.entries(p.counters).filter(([name]) => !/Data|Pkts/.test(name)));
    out.set(`${p.nodeGuid}/${p.portNum}`, errors);
  }
  return out;
}

/**
 * Under ibsim a client dies of SIGSEGV in ~3% of runs and diags.ts runs it once more, with a
 * note: "ibqueryerrors --counters died of SIGSEGV; ran it again". Such a run is called twice.
 */
const RETRY = /^(\S+) (.*) died of \w+; ran it again$/;
function withRetries(expected: string[], notes: string[] = []): string[] {
  const again = notes.flatMap((n) => {
    const m = RETRY.exec(n);
    return m ? [`${m[1]} ${m[2]}`] : [];
  });
  return [...expected, ...again].sort();
}

describe('the PM sweep on one fabric snapshot', () => {
  it('reads the same ports and error counters as two discovering runs, and removes the snapshot', async () => {
    expect((await h.scan('topology')).status).not.toBe('failed');
    const leaf = h.port('leaf-r0-01', 33);
    const hca = h.port(h.peer(h.port('leaf-r0-01', 1)).node, 1);
    await setCounter(h.lab, leaf, 'SymbolErrorCounter', 17);
    await setCounter(h.lab, hca, 'PortRcvErrors', 5);
    const portToNode = new Map(iteratePortGuids(h.ctx.db));
    const envOf = toolEnvProvider(h.ctx.config);
    const calls: string[] = [];
    const runner = recording(h.ctx.runner, calls);
    const stem = join(h.root, 'pm-snapshot');
    const once = await createDiagsSource(runner, envOf, { fabricCache: stem, outstandingSmps: 8 }).collectPm(
      portToNode,
    );
    const snapshotCalls = calls.splice(0);
    const each = await createDiagsSource(runner, envOf).collectPm(portToNode);

    const file = /^ibnetdiscover --cache (\S+) /.exec(snapshotCalls.find((c) => c.startsWith('ibnetdiscover'))!)![1]!;
    expect(file).toMatch(new RegExp(`^${stem}-${process.pid}-\\d+$`));
    expect(snapshotCalls.sort()).toEqual(
      withRetries(
        [
          `ibnetdiscover --cache ${file} -o 8 /dev/null`,
          `ibqueryerrors --data --threshold-file /dev/null --load-cache ${file}`,
          `ibqueryerrors --counters --load-cache ${file}`,
        ],
        once.notes,
      ),
    );
    expect(calls.sort()).toEqual(
      withRetries(['ibqueryerrors --counters', 'ibqueryerrors --data --threshold-file /dev/null'], each.notes),
    );
    expect(existsSync(file)).toBe(false);
    expect((once.notes ?? []).filter((n) => !RETRY.test(n))).toEqual([]);
    expect(once.warnings).toEqual(each.warnings);

    const a = errorsByPort(once.data);
    const b = errorsByPort(each.data);
    expect(a.size).toBeGreaterThan(1000);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.get(leaf.key)?.SymbolErrorCounter).toBe(17n);
    expect(a.get(hca.key)?.PortRcvErrors).toBe(5n);
    for (const [key, errors] of a) expect(errors, key).toEqual(b.get(key));
  }, 120_000);

  it('a snapshot ibnetdiscover cannot write leaves the discovering runs, with a note', async () => {
    const calls: string[] = [];
    const runner = recording(h.ctx.runner, calls);
    const stem = join(h.root, 'no-such-dir', 'pm-snapshot');
    const r = await createDiagsSource(runner, toolEnvProvider(h.ctx.config), {
      fabricCache: stem,
      outstandingSmps: 8,
    }).collectPm(new Map(iteratePortGuids(h.ctx.db)));
    expect(calls.slice(1).sort()).toEqual(
      withRetries(['ibqueryerrors --counters -o 8', 'ibqueryerrors --data --threshold-file /dev/null -o 8'], r.notes),
    );
    expect((r.notes ?? []).filter((n) => !RETRY.test(n))).toEqual([
      expect.stringMatching(/^fabric snapshot for the PM sweep failed \(ibnetdiscover /),
    ]);
    expect(tableToPortCounters(r.data).length).toBeGreaterThan(1000);
    expect(readdirSync(h.root).filter((f) => f.includes('pm-snapshot'))).toEqual([]);
  }, 120_000);
});
