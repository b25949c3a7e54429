// The bad-input corpus: every case goes through the real import path of the collector and must
// end as a failed or partial scan whose error/warnings name the file and line, leave earlier
// data untouched when it fails, and leave the process able to import good input right after.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { createContext, type Context } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import {
  cannedLab,
  cleanupTemp,
  fingerprint,
  labOutputs,
  PARSER_FIXTURES,
  RUN_A,
  tempDir,
  testConfig,
  TOKEN,
  type CannedRunner,
} from './support.ts';
import type { CorpusCase } from './corpus/types.ts';
import { ibdiagnetCases } from './corpus/ibdiagnet-cases.ts';
import { ncclCases } from './corpus/nccl-cases.ts';
import { diagsCases } from './corpus/diags-cases.ts';

const CASES: CorpusCase[] = [...ibdiagnetCases(), ...ncclCases(), ...diagsCases()];
const GOOD_NCCL = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
const results: { format: string; name: string; status: string; message: string }[] = [];

let imports: Context;
let diags: Context;
let runner: CannedRunner;

beforeAll(async () => {
  imports = createContext(testConfig(tempDir('corpus-imports')));
  expect((await imports.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
  expect((await imports.scans.importNccl(GOOD_NCCL, { cluster: 'a' }, 'good.txt', 'cli')).scan.status).toBe('ok');
  runner = cannedLab();
  diags = createContext(testConfig(tempDir('corpus-diags'), { IBWATCH_SOURCE: 'diags' }), { runner });
  for (const k of ['topology', 'sm', 'pm', 'pm'] as const)
    expect((await diags.scans.run(k, 'cli')).status).not.toBe('failed');
}, 60_000);

afterAll(() => {
  const w = Math.max(...results.map((r) => r.name.length));
  const lines = results.map(
    (r) => `${r.format.padEnd(16)} ${r.name.padEnd(w)}  ${r.status.padEnd(7)}  ${r.message.slice(0, 110)}`,
  );
  const by = (s: string) => results.filter((r) => r.status === s).length;
  console.log(
    `bad-input corpus: ${results.length} cases, ${by('failed')} failed, ${by('partial')} partial, ${by('ok')} ok\n${lines.join('\n')}`,
  );
  imports.db.close();
  diags.db.close();
  cleanupTemp();
});

async function runCase(c: CorpusCase): Promise<{ ctx: Context; row: ScanRow }> {
  switch (c.format) {
    case 'ibdiagnet2':
      return { ctx: imports, row: await imports.scans.importIbdiagnet(c.input(), 'cli') };
    case 'nccl-tests':
      return {
        ctx: imports,
        row: (await imports.scans.importNccl(c.input(), { cluster: 'corpus' }, c.file, 'api')).scan,
      };
    case 'infiniband-diags': {
      runner.outputs = new Map(Object.entries(c.outputs()));
      try {
        return { ctx: diags, row: await diags.scans.run(c.scan, 'cli') };
      } finally {
        runner.outputs = new Map(Object.entries(labOutputs()));
      }
    }
  }
}

/** The same context imports good input right after the bad one: nothing is stuck or poisoned. */
async function goodImportStillWorks(c: CorpusCase): Promise<void> {
  if (c.format === 'infiniband-diags') {
    expect((await diags.scans.run(c.scan, 'cli')).status).not.toBe('failed');
  } else if (c.format === 'nccl-tests') {
    expect((await imports.scans.importNccl(GOOD_NCCL, { cluster: 'a' }, 'good.txt', 'cli')).scan.status).toBe('ok');
  } else {
    expect((await imports.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
  }
}

describe('bad-input corpus', () => {
  it('has at least 40 cases over all three formats', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.format)).size).toBe(3);
  });

  it.each(CASES.map((c) => [`${c.format}: ${c.name}`, c] as const))(
    '%s',
    async (_label, c) => {
      const ctx = c.format === 'infiniband-diags' ? diags : imports;
      const before = fingerprint(ctx.db);
      const fabric = () =>
        ctx.db.prepare("SELECT (SELECT COUNT(*) FROM nodes) || '/' || (SELECT COUNT(*) FROM ports)").pluck().get();
      const fabricBefore = fabric();
      const { row } = await runCase(c);
      const text = [row.error ?? '', ...row.warnings].join('\n');
      results.push({ format: c.format, name: c.name, status: row.status, message: row.error ?? row.warnings[0] ?? '' });

      expect(row.status, text).toBe(c.expect);
      for (const m of c.mentions) expect(text).toMatch(m);
      if (row.status === 'failed') {
        expect(row.error).toBeTruthy();
        expect(fingerprint(ctx.db)).toBe(before);
      }
      if (c.sameFabric) expect(fabric()).toBe(fabricBefore);
      if (row.status === 'partial') expect(row.warnings.length + (row.error ? 1 : 0)).toBeGreaterThan(0);
      expect(ctx.db.prepare("SELECT COUNT(*) FROM scans WHERE status = 'running'").pluck().get()).toBe(0);
      // After a partial import the next case shows the process still works; after a failure, check.
      if (row.status === 'failed') await goodImportStillWorks(c);
    },
    30_000,
  );

  it('lists every failed import with its error text in /api/scans (what the UI shows)', async () => {
    // Not closed: the app's onClose hook would close the database that afterAll closes.
    const app = await buildApp(imports);
    const res = await app.inject({
      url: '/api/scans?status=failed&limit=1000',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const failed = res.json() as ScanRow[];
    const expected = results.filter((r) => r.status === 'failed' && r.format !== 'infiniband-diags');
    expect(failed.length).toBe(expected.length);
    for (const r of expected) expect(failed.some((f) => f.error === r.message)).toBe(true);
  });
});
