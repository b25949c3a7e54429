// The hostile corpus (issue 14): the independent test's kinds of input — special files, sizes,
// lines without end, truncations, bit flips, odd numbers, hostile names, a hostile drop
// directory and API abuse — each with the outcome it must have, through the collector's real
// paths. The import formats run under the bad-input corpus's rules (reliability/corpus/runner.ts):
// a failure names the file and changes nothing stored, and the same process imports good input
// right after. Multi-process cases (concurrent writers) are in concurrent-writers.test.ts.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ParseError } from '@ibwatch/parsers';
import { buildApp } from '../../src/app.ts';
import { startDropDirWatcher } from '../../src/scans/drop-dir.ts';
import { readNcclFile } from '../../src/sources/nccl-file.ts';
import { CorpusRunner, type CaseResult } from '../reliability/corpus/runner.ts';
import { cleanupTemp, fingerprint, tempDir } from '../reliability/support.ts';
import { apiCases, holdingTheLock } from './corpus/api-cases.ts';
import { dropDirCases } from './corpus/drop-dir-cases.ts';
import { ibdiagnetContentCases } from './corpus/ibdiagnet-content.ts';
import { ibdiagnetFileCases } from './corpus/ibdiagnet-files.ts';
import { diagsCases, ncclCases } from './corpus/nccl-diags.ts';
import type { HostileCase } from './corpus/types.ts';

const corpus = new CorpusRunner();
const results: CaseResult[] = [];
let app: FastifyInstance;
const drop = { dir: '', warns: [] as string[], tick: async () => {}, stop: () => {} };

const CASES: HostileCase[] = [
  ...ibdiagnetFileCases(),
  ...ibdiagnetContentCases(),
  ...ncclCases(),
  ...diagsCases(),
  ...dropDirCases(),
  ...apiCases({
    busy: (send) =>
      holdingTheLock(corpus.imports.config.dbFile, (ms) => corpus.imports.db.pragma(`busy_timeout = ${ms}`))(send),
  }),
];

beforeAll(async () => {
  await corpus.setUp();
  // Not closed: the app's onClose hook would close the database the runner closes.
  app = await buildApp(corpus.imports);
  drop.dir = join(tempDir('hostile-drop'), 'drop');
  mkdirSync(drop.dir);
  const log = { info() {}, warn: (_o: unknown, m?: string) => void drop.warns.push(m ?? '') };
  const w = startDropDirWatcher(drop.dir, { scans: corpus.imports.scans, db: corpus.imports.db, log }, 3_600_000);
  drop.tick = w.tick;
  drop.stop = w.stop;
}, 120_000);

afterAll(() => {
  drop.stop();
  console.log(corpus.summary('hostile corpus', [...corpus.results, ...results]));
  corpus.tearDown();
  cleanupTemp();
});

const runs = () => corpus.imports.db.prepare('SELECT COUNT(*) FROM nccl_runs').pluck().get() as number;
const note = (c: HostileCase, status: string, message: string) =>
  results.push({ format: c.format, name: c.name, status, message });

/** `ibwatch import nccl FILE`, in process: the same read checks, then the same import. */
async function ncclFile(c: Extract<HostileCase, { format: 'nccl-file' }>): Promise<void> {
  const ctx = corpus.imports;
  const before = fingerprint(ctx.db);
  const scans = ctx.db.prepare('SELECT COUNT(*) FROM scans').pluck().get();
  const path = c.input();
  let text: string;
  try {
    text = readNcclFile(path).toString('utf8');
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    note(c, 'refused', err.message);
    expect(c.expect, err.message).toBe('refused');
    for (const m of c.mentions) expect(err.message).toMatch(m);
    expect(err.file).toBe(path);
    // Refused before a byte was read: no scan, nothing stored.
    expect(ctx.db.prepare('SELECT COUNT(*) FROM scans').pluck().get()).toBe(scans);
    expect(fingerprint(ctx.db)).toBe(before);
    return;
  }
  const { scan, runId } = await ctx.scans.importNccl(text, {}, basename(path), 'cli');
  note(c, scan.status, scan.error ?? scan.warnings[0] ?? '');
  expect(scan.status, scan.error ?? '').toBe(c.expect);
  for (const m of c.mentions) expect([scan.error, ...scan.warnings].join('\n')).toMatch(m);
  expect(runId === null).toBe(scan.status === 'failed');
  if (scan.status === 'failed') expect(fingerprint(ctx.db)).toBe(before);
}

async function dropDir(c: Extract<HostileCase, { format: 'drop-dir' }>): Promise<void> {
  const path = join(drop.dir, c.file);
  c.input(path);
  const before = runs();
  const warned = drop.warns.length;
  await drop.tick();
  const where = existsSync(join(drop.dir, 'imported', c.file))
    ? 'imported'
    : existsSync(join(drop.dir, 'failed', c.file))
      ? 'failed'
      : readdirSync(drop.dir).includes(c.file)
        ? 'left'
        : 'gone';
  const added = runs() - before;
  const outcome = where === 'imported' && added === 0 ? 'duplicate' : where;
  const said = drop.warns.slice(warned).join('\n');
  const lastError =
    (corpus.imports.db
      .prepare("SELECT error FROM scans WHERE kind = 'import-nccl' ORDER BY id DESC LIMIT 1")
      .pluck()
      .get() as string | null) ?? '';
  note(c, outcome, said || (outcome === 'failed' ? lastError : ''));
  expect(outcome, said).toBe(c.expect);
  expect(added).toBe(c.expect === 'imported' ? 1 : 0);
  for (const m of c.mentions) expect(`${said}\n${lastError}`).toMatch(m);
  // The next round says nothing new about what it already reported, and imports nothing more.
  const again = drop.warns.length;
  await drop.tick();
  expect(drop.warns.length).toBe(again);
  expect(runs()).toBe(before + added);
}

async function api(c: Extract<HostileCase, { format: 'api' }>): Promise<void> {
  const before = runs();
  let res: Awaited<ReturnType<FastifyInstance['inject']>> | undefined;
  const send = async () => {
    res = await app.inject(c.request());
  };
  await (c.around ? c.around(send) : send());
  const body = res!.body.slice(0, 2000);
  note(c, String(res!.statusCode), body.slice(0, 200));
  expect(res!.statusCode, body).toBe(c.expect);
  for (const m of c.mentions) expect(body).toMatch(m);
  if (c.expect === 503) expect(res!.headers['retry-after']).toMatch(/^\d+$/);
  expect(runs()).toBe(before + (c.expect === 201 ? 1 : 0));
}

describe('hostile corpus', () => {
  it('has at least 100 inputs over every format and the API', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CASES.map((c) => c.format))).toEqual(
      new Set(['ibdiagnet2', 'nccl-tests', 'nccl-file', 'infiniband-diags', 'drop-dir', 'api']),
    );
  });

  it.each(CASES.map((c) => [`${c.format}: ${c.name}`, c] as const))(
    '%s',
    async (_label, c) => {
      switch (c.format) {
        case 'nccl-file':
          return ncclFile(c);
        case 'drop-dir':
          return dropDir(c);
        case 'api':
          return api(c);
        default:
          await corpus.check(c);
      }
    },
    60_000,
  );
});
