// Shared set-up of the collector's tests: a real SQLite file in a temp dir, a config that runs no
// tools, and the paths of the real samples and fixtures. Imported only by *.test.ts files.
import { tempDir, TEST_TOKEN, testCollectorEnv } from '@ibwatch/testkit';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, vi } from 'vitest';
import { COUNTER_SPECS, tableToPortCounters, type PortCounters, type ScanRow } from '@ibwatch/fabric';
import { loadConfig, type Config } from './config.ts';
import { createContext, type Context } from './context.ts';
import { openDb } from './db/open-db.ts';
import { buildApp } from './app.ts';
import { NameBook } from './names.ts';
import { runPipeline } from './scans/pipeline.ts';
import { storePm } from './scans/pm-store.ts';
import { CounterBaseline } from './scans/counter-baseline.ts';

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const IBDIAGNET_RUNS = resolve(REPO_ROOT, 'packages/parsers/fixtures/ibdiagnet2-runs');
export const SAMPLE_A = join(IBDIAGNET_RUNS, 'ndr-fat-tree-a');
export const SAMPLE_B = join(IBDIAGNET_RUNS, 'ndr-fat-tree-b');
export const NCCL_FIXTURES = resolve(REPO_ROOT, 'packages/parsers/fixtures/nccl');
export const TOKEN = TEST_TOKEN;

export const ncclFixture = (name: string): string => readFileSync(join(NCCL_FIXTURES, name), 'utf8');

export { tempDir };

/** A config for tests: import-only source (no tools), a DB file in `dir`, no web UI, a token. */
export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig(testCollectorEnv(dir, env));
}

/** A context on a fresh database file in a fresh temp dir; `cleanup()` closes it and removes the dir. */
export function testContext(env: Record<string, string> = {}): Context & { dir: string; cleanup: () => void } {
  const t = tempDir();
  const config = testConfig(t.dir, env);
  const ctx = createContext(config, { db: openDb(config.dbFile) });
  return {
    ...ctx,
    dir: t.dir,
    cleanup: () => {
      if (ctx.db.open) ctx.db.close();
      t.cleanup();
    },
  };
}

/**
 * A test file's fixture: the seeded sample fabric (see seedFabric) and the app over it, set up
 * before the file's tests and closed after them. Read `app` inside tests (it is set in beforeAll).
 */
export function useSeededApp(): { ctx: ReturnType<typeof testContext>; app: FastifyInstance } {
  const fixture = { ctx: testContext(), app: undefined as unknown as FastifyInstance };
  beforeAll(async () => {
    await seedFabric(fixture.ctx);
    fixture.app = await appOf(fixture.ctx);
  });
  afterAll(async () => {
    await fixture.app.close();
    fixture.ctx.cleanup();
  });
  return fixture;
}

/** The app over a context, as server.ts builds it (no listening socket); `names` overrides the name map. */
export function appOf(ctx: Context, names: NameBook = ctx.names): Promise<FastifyInstance> {
  return buildApp({ config: ctx.config, db: ctx.db, scans: ctx.scans, names });
}

export const auth = { authorization: `Bearer ${TOKEN}` };

/**
 * One PM sweep through the real pipeline and store, at a chosen time, with the counters given
 * (e.g. the sample's counters with errors added): what a perfquery sweep would hand over.
 */
export function pmSweep(ctx: Context, at: number, counters: PortCounters[]): Promise<ScanRow> {
  const baseline = new CounterBaseline(ctx.db);
  return runPipeline(
    ctx.db,
    'pm',
    'cli',
    async () => ({ data: counters, raw: [], toolVersions: {}, warnings: [] }),
    (id, t, c) => storePm(ctx.db, ctx.config, ctx.names, baseline, id, t, c.data),
    () => at,
  );
}

/**
 * Counters with `add` added to one counter of one port, and to its 64-bit twin when the port has
 * one (`SymbolErrorCounterExt`, `PortXmitDataExtended`: ibdiagnet's PM_INFO carries both, and the
 * twin is what is read). A copy.
 */
export function withErrors(
  counters: PortCounters[],
  port: { nodeGuid: string; portNum: number },
  name: string,
  add: bigint,
): PortCounters[] {
  const twins = COUNTER_SPECS.get(name)?.extNames ?? [`${name}Ext`];
  return counters.map((p) => {
    if (p.nodeGuid !== port.nodeGuid || p.portNum !== port.portNum) return p;
    const c = { ...p.counters, [name]: (p.counters[name] ?? 0n) + add };
    for (const t of twins) if (c[t] !== undefined) c[t] = c[t]! + add;
    return { ...p, counters: c };
  });
}

/** The leaf-spine link port the seeded PM sweep puts symbol errors on (spine switch, port 3). */
export const ERROR_PORT = { nodeGuid: '0xb0cf0e0300d33fc0', portNum: 3 };
/** A port whose link the seeded sweep sees going down three times (a flapping link). */
export const FLAP_PORT = { nodeGuid: '0xb0cf0e0300d33fc0', portNum: 5 };

/**
 * The counters of seedFabric's two PM sweeps: the ndr-fat-tree-a sample's, then the same with
 * symbol errors and link error recoveries on ERROR_PORT and three flaps of FLAP_PORT.
 */
export async function seedCounters(): Promise<[PortCounters[], PortCounters[]]> {
  const { readIbdiagnetDir } = await import('./input/ibdiagnet-dir.ts');
  const counters = tableToPortCounters((await readIbdiagnetDir(SAMPLE_A)).value.counters);
  let errored = withErrors(counters, ERROR_PORT, 'SymbolErrorCounter', 500n);
  errored = withErrors(errored, ERROR_PORT, 'LinkErrorRecoveryCounter', 50n);
  errored = withErrors(errored, FLAP_PORT, 'LinkDownedCounter', 3n);
  return [counters, errored];
}

/**
 * A realistic database for route tests: the real ndr-fat-tree-a import, two PM sweeps a minute
 * apart (the second with symbol errors and link error recoveries on ERROR_PORT, and a flapping
 * FLAP_PORT), and two nccl runs (GDR on, GDR off).
 */
export async function seedFabric(ctx: Context): Promise<{ goodRun: number; badRun: number }> {
  const a = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  if (a.status === 'failed') throw new Error(`seed import failed: ${a.error}`);
  const [counters, errored] = await seedCounters();
  const now = Date.now();
  await pmSweep(ctx, now - 60_000, counters);
  await pmSweep(ctx, now, errored);
  const good = await ctx.scans.importNccl(
    ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt'),
    { cluster: 'a' },
    'good.txt',
    'api',
  );
  const bad = await ctx.scans.importNccl(
    ncclFixture('all_reduce_perf.gdr-disabled.multinode.good.txt'),
    { cluster: 'a' },
    'bad.txt',
    'api',
  );
  return { goodRun: good.runId!, badRun: bad.runId! };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as a user would (`pnpm ibwatch ...` is `node --import tsx src/cli.ts ...`), with
 * an import-only source, no token and none of the test run's other IBWATCH_* variables; `env`
 * sets some.
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(childEnv)) if (k.startsWith('IBWATCH_')) delete childEnv[k];
  Object.assign(childEnv, { IBWATCH_SOURCE: 'import-only', IBWATCH_TOKEN: '' }, env);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: resolve(import.meta.dirname, '..'),
      env: childEnv,
      // Each run starts node + tsx (~1 s alone, several on a busy 2-core machine).
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface ServerProcess {
  child: ChildProcess;
  /** stdout lines so far (pino JSON). */
  lines: string[];
  exited: Promise<number | null>;
  stderr(): string;
}

/**
 * `ibwatch serve` (src/server.ts) in a process of its own on a free port, logging at info;
 * `argv` runs it another way (`['src/cli.ts', 'serve', '--port', ...]`).
 */
export function spawnServer(env: Record<string, string>, argv = ['src/server.ts']): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...argv], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, IBWATCH_PORT: '0', IBWATCH_LOG_LEVEL: 'info', ...env },
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, lines, exited, stderr: () => stderr };
}

/** The server's base URL once it logs that it listens (fails at once if it exited instead). */
export function listeningUrl(s: ServerProcess, timeoutMs = 20_000): Promise<string> {
  return vi.waitFor(
    () => {
      if (s.child.exitCode !== null) throw new Error(`server exited ${s.child.exitCode}: ${s.stderr()}`);
      const m = s.lines.map((l) => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(l)).find(Boolean);
      if (!m) throw new Error('not listening yet');
      return m[1]!;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/**
 * Makes `dir` read-only for this process and its children: a read-only bind mount as root (EROFS,
 * as on a read-only NFS export; root ignores file modes), else mode 0555 (EACCES). Returns the undo.
 */
export function readOnlyDir(dir: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['--bind', dir, dir]);
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
    return () => execFileSync('umount', [dir]);
  }
  chmodSync(dir, 0o555);
  return () => chmodSync(dir, 0o755);
}

/**
 * What a fake tool runner does with the PM sweep's fabric snapshot, as the real tools do:
 * `ibnetdiscover --cache FILE /dev/null` writes FILE and prints nothing (`snapshot`), and a run
 * with `--load-cache FILE` or `-o N` answers as the same run without it (`key` leaves those out).
 */
export function cannedToolCall(tool: string, args: readonly string[]): { key: string; snapshot: boolean } {
  if (tool === 'ibnetdiscover' && args[0] === '--cache') {
    writeFileSync(args[1]!, 'canned fabric snapshot');
    return { key: 'ibnetdiscover --cache', snapshot: true };
  }
  const valued = ['--load-cache', '-o'];
  const kept = args.filter((a, i) => !valued.includes(a) && !valued.includes(args[i - 1]!));
  return { key: [tool, ...kept].join(' '), snapshot: false };
}
