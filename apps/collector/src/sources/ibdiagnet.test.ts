// collectIbdiagnet() through the REAL tool runner, scan pipeline and database, with a stand-in
// `ibdiagnet`: NVIDIA's ibdiagnet (part of the proprietary ibutils2/MLNX_OFED/DOCA stack) is not
// installable here, and it needs a live fabric anyway. The stand-in is a small shell script
// (IBWATCH_IBDIAGNET points at it) that writes its argv to a file, then copies the real
// ibdiagnet2 run ndr-fat-tree-b into the `-o DIR` it was given, and exits 0 (clean fabric),
// exits 1 (ibdiagnet's answer when it found fabric errors: the output is still complete), exits 1
// having written nothing (it could not run), or hangs. So what is under test is the integration of
// runner, source, real parser and store, not ibdiagnet itself.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIbdiagnetDir } from '../input/ibdiagnet-dir.ts';
import { createContext, type Context } from '../context.ts';
import { createScansRepo } from '../db/scans-repo.ts';
import { openDb } from '../db/open-db.ts';
import { SAMPLE_B, tempDir, testConfig } from '../test-support.ts';
import { createToolRunner, type ToolRunner } from './tool-runner.ts';

const tmp = tempDir('ibwatch-ibdiagnet-');
const tool = join(tmp.dir, 'bin', 'ibdiagnet');
const argsFile = join(tmp.dir, 'ibdiagnet.args');
const pidFile = join(tmp.dir, 'ibdiagnet.pid');
const EXTRA_ARGS = '--get_cable_info --pm_pause_time 5 --skip dup_guids';

/** Writes the stand-in: record argv (one per line), find `-o DIR`, then run `body` (`copy` = write the sample). */
function standIn(body: string | null): void {
  rmSync(tool, { force: true });
  if (body === null) return;
  writeFileSync(
    tool,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" > '${argsFile}'`,
      'out=',
      'while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift;; esac; shift; done',
      `copy() { cp -R '${SAMPLE_B}'/. "$out"/; }`,
      body,
      '',
    ].join('\n'),
  );
  chmodSync(tool, 0o755);
}

const recordedArgs = () => readFileSync(argsFile, 'utf8').split('\n').slice(0, -1);
const raw = (c: Context, scanId: number) =>
  Object.fromEntries(
    createScansRepo(c.db)
      .rawOutputs(scanId)
      .map((r) => [r.name, gunzipSync(r.gz).toString('utf8')]),
  );
const one = (c: Context, sql: string) => c.db.prepare(sql).pluck().get() as number;

let contextCount = 0;
/** A context on its own database (and ibdiagnet output dir) under the temp dir. */
function context(env: Record<string, string>, runner?: ToolRunner): Context {
  const dir = join(tmp.dir, `ctx-${++contextCount}`);
  mkdirSync(dir);
  const config = testConfig(dir, { IBWATCH_SOURCE: 'ibdiagnet', IBWATCH_IBDIAGNET: tool, ...env });
  return createContext(config, { db: openDb(config.dbFile), runner });
}

let ctx: Context;
let sample: Awaited<ReturnType<typeof readIbdiagnetDir>>['value'];
const contexts: Context[] = [];
beforeAll(async () => {
  mkdirSync(dirname(tool), { recursive: true });
  ctx = context({ IBWATCH_IBDIAGNET_ARGS: EXTRA_ARGS });
  contexts.push(ctx);
  sample = (await readIbdiagnetDir(SAMPLE_B)).value;
});
afterAll(() => {
  for (const c of contexts) if (c.db.open) c.db.close();
  tmp.cleanup();
});

describe("ctx.scans.run('ibdiagnet') with a stand-in ibdiagnet", () => {
  it('runs `ibdiagnet -o DIR` plus IBWATCH_IBDIAGNET_ARGS as separate argv entries', async () => {
    standIn('copy');
    const row = await ctx.scans.run('ibdiagnet', 'cli');
    expect(row.status).toBe('ok');
    const args = recordedArgs();
    expect(args).toEqual(['-o', expect.any(String), '--get_cable_info', '--pm_pause_time', '5', '--skip', 'dup_guids']);
    // A fresh timestamped directory under IBWATCH_IBDIAGNET_OUT, kept for re-reading.
    expect(dirname(args[1]!)).toBe(ctx.config.ibdiagnetOutDir);
    expect(readdirSync(args[1]!)).toContain('ibdiagnet2.db_csv');
  });

  it('stores the run it wrote (exit 0) as an ok scan with the whole fabric', async () => {
    standIn('copy; echo "-I- Done. Run time was 12 seconds"');
    const row = await ctx.scans.run('ibdiagnet', 'cli');
    expect(row).toMatchObject({ kind: 'ibdiagnet', trigger: 'cli', status: 'ok', error: null, warnings: [] });
    expect(row.toolVersions.ibdiagnet).toMatch(/^IBDIAGNET 2\./);
    expect(one(ctx, 'SELECT COUNT(*) FROM nodes')).toBe(sample.nodes.length);
    expect(one(ctx, 'SELECT COUNT(*) FROM links WHERE present = 1')).toBe(sample.links.length);
    expect(Object.keys(raw(ctx, row.id))).toEqual(expect.arrayContaining(['ibdiagnet2.log', 'ibdiagnet2.sm']));
  });

  it(
    'still stores the run when ibdiagnet exits 1 after writing it (fabric errors found), with the exit as a ' +
      'warning',
    async () => {
      standIn('copy; echo "-E- Found 3 errors, see ibdiagnet2.log" >&2; exit 1');
      const row = await ctx.scans.run('ibdiagnet', 'cli');
      expect(row.status).toBe('partial');
      expect(row.warnings[0]).toMatch(
        new RegExp(
          `^${tool.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -o \\S+ --get_cable_info .*: exit 1: -E- Found 3 ` +
            `errors, see ibdiagnet2\\.log$`,
        ),
      );
      expect(row.summary).toMatchObject({ 'topology.nodes': sample.nodes.length });
      expect(one(ctx, 'SELECT COUNT(*) FROM nodes')).toBe(sample.nodes.length);
    },
  );

  it('fails the scan when ibdiagnet exits non-zero having written nothing, keeping its stderr', async () => {
    const before = one(ctx, 'SELECT COUNT(*) FROM nodes');
    standIn('echo "-E- Failed to open port: mad_rpc_open_port failed" >&2; exit 1');
    const row = await ctx.scans.run('ibdiagnet', 'cli');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/: exit 1: -E- Failed to open port: mad_rpc_open_port failed$/);
    expect(raw(ctx, row.id)['ibdiagnet.stderr.txt']).toContain('mad_rpc_open_port failed');
    expect(one(ctx, 'SELECT COUNT(*) FROM nodes')).toBe(before);
  });

  it('fails the scan saying "not found" when the configured binary is missing', async () => {
    standIn(null);
    const row = await ctx.scans.run('ibdiagnet', 'cli');
    expect(row).toMatchObject({ status: 'failed', error: `${tool}: not found on PATH` });
  });

  it('is refused for the import-only source, which runs no tools', async () => {
    standIn('copy');
    rmSync(argsFile, { force: true });
    const c = context({ IBWATCH_SOURCE: 'import-only' });
    contexts.push(c);
    const row = await c.scans.run('ibdiagnet', 'cli');
    expect(row).toMatchObject({ status: 'failed', error: 'source "import-only" runs no tools' });
    expect(existsSync(argsFile)).toBe(false);
  });
});

describe('a hanging ibdiagnet', () => {
  it('is killed at its timeout and the scan fails; output it wrote before hanging is not stored', async () => {
    // ibdiagnet's timeout is at least 10 min (a big fabric takes that long): the runner here is
    // the real one, but it records the timeout asked for and enforces 500 ms instead.
    const real = createToolRunner({ timeoutMs: 60_000, maxOutputBytes: 1 << 20 });
    const asked: (number | undefined)[] = [];
    const runner: ToolRunner = {
      run(t, args, opts = {}) {
        asked.push(opts.timeoutMs);
        return real.run(t, args, { ...opts, timeoutMs: 500 });
      },
    };
    const c = context({}, runner);
    contexts.push(c);
    standIn(`copy; echo $$ > '${pidFile}'; exec sleep 100`);
    const t0 = Date.now();
    const row = await c.scans.run('ibdiagnet', 'cli');
    expect(asked).toEqual([600_000]);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/ -o \S+: killed after timeout \(\d+ ms\)$/);
    expect(one(c, 'SELECT COUNT(*) FROM nodes')).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const alive = existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
    expect(alive).toBe(false);
  });
});
