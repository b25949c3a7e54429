// The bad-input corpus: every case goes through the real import path of the collector and must
// end as a failed or partial scan whose error/warnings name the file and line, leave earlier
// data untouched when it fails, and leave the process able to import good input right after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { buildApp } from '../../src/app.ts';
import { cleanupTemp, TOKEN } from './support.ts';
import type { CorpusCase } from './corpus/types.ts';
import { ibdiagnetCases } from './corpus/ibdiagnet-cases.ts';
import { ncclCases } from './corpus/nccl-cases.ts';
import { diagsCases } from './corpus/diags-cases.ts';
import { CorpusRunner } from './corpus/runner.ts';

const CASES: CorpusCase[] = [...ibdiagnetCases(), ...ncclCases(), ...diagsCases()];
const corpus = new CorpusRunner();
const results = corpus.results;

beforeAll(() => corpus.setUp(), 60_000);

afterAll(() => {
  console.log(corpus.summary('bad-input corpus'));
  corpus.tearDown();
  cleanupTemp();
});

describe('bad-input corpus', () => {
  it('has at least 40 cases over all three formats', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.format)).size).toBe(3);
  });

  it.each(CASES.map((c) => [`${c.format}: ${c.name}`, c] as const))(
    '%s',
    async (_label, c) => {
      await corpus.check(c);
    },
    30_000,
  );

  it('lists every failed import with its error text in /api/scans (what the UI shows)', async () => {
    // Not closed: the app's onClose hook would close the database that afterAll closes.
    const app = await buildApp(corpus.imports);
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
