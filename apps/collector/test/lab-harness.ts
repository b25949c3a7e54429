// The collector wired to a live lab (ibsim + two OpenSMs + infiniband-diags) for the
// integration tests: the real scan pipeline, the real database, reads through `app.inject()`.
// Nodes are resolved by NAME from the lab's generated topology; no GUID or LID is hard-coded.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FindingRow, ScanRow, WorklistEntry } from '@ibwatch/fabric';
import { isAlive, nodesByName, peerOf, sleep, startLab, stopLab, type Lab, type TopoNode } from '@ibwatch/lab';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openContext, type Context } from '../src/context.ts';

export const GPUS = 256;
export const TIERS = 3;

/** A port as `{ node, port }` (lab addressing) plus its `<guid>/<port>` key (collector addressing). */
export interface Port {
  node: string;
  port: number;
  key: string;
}

export interface Harness {
  root: string;
  labDir: string;
  lab: Lab;
  ctx: Context;
  app: FastifyInstance;
  /** Runs one scan through the real pipeline (same path as the scheduler, API and CLI). */
  scan(kind: 'topology' | 'pm' | 'sm'): Promise<ScanRow>;
  /** GET through `app.inject()`; throws unless 200. */
  get<T>(url: string): Promise<T>;
  node(name: string): TopoNode;
  port(node: string, port: number): Port;
  /** The far end of a cabled port, from the generated topology. */
  peer(p: Port): Port;
  /** Current findings (observed by the latest scan of their kind) whose subject is a port or a link. */
  linkFindings(): Promise<FindingRow[]>;
  /** Worklist entries still observed: not resolved and not cleared. */
  openWorklist(): Promise<WorklistEntry[]>;
  /** Stops the lab in `labDir` and starts a new one there (same topology). */
  restartLab(): Promise<void>;
  close(): Promise<void>;
}

/** `<guid>/<port>` ends named by a finding's subject key (`port:g/n` or `link:g/n~g/n`). */
export function endsOf(f: Pick<FindingRow, 'subjectKey'>): string[] {
  return f.subjectKey.replace(/^(port|link):/, '').split('~');
}

/** `<guid>/<port>` of a worklist entry's ends. */
export function entryEnds(e: WorklistEntry): string[] {
  return [e.a, e.b].filter((x) => x !== null).map((x) => `${x.guid}/${x.port}`);
}

/**
 * Polls `f` until it returns a value (not undefined), at most `timeoutMs`. `what` may be a
 * function, so the timeout message can say what was seen last.
 */
export async function until<T>(
  what: string | (() => string),
  f: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(everyMs);
  }
}

/**
 * Waits until a diags tool is running against the lab: umad2sim creates `sys-<pid>/` in the
 * tool's cwd (a dir of a dead PID is a leftover of a killed tool, not a running one).
 */
export async function toolAttached(lab: Lab, timeoutMs = 10_000): Promise<void> {
  const running = () =>
    readdirSync(lab.state.paths.scratch).some((d) => /^sys-\d+$/.test(d) && isAlive(Number(d.slice(4))));
  await until('a diags tool to attach to ibsim', async () => (running() ? true : undefined), timeoutMs, 5);
}

/**
 * Starts a lab in a fresh temp dir and a collector context on it. `env` adds IBWATCH_* settings;
 * the grace period is 0 (every link of a fresh lab is new) and the web UI is not served.
 */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'ibwatch-collector-it-'));
  const labDir = join(root, 'lab');
  mkdirSync(labDir);
  let lab: Lab;
  try {
    lab = await startLab({ gpus: GPUS, tiers: TIERS, dir: labDir });
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const config = loadConfig({
    IBWATCH_SOURCE: 'lab',
    IBWATCH_LAB_DIR: labDir,
    IBWATCH_DB: join(root, 'ib.db'),
    IBWATCH_WEB_DIST: join(root, 'no-web-ui'),
    IBWATCH_GRACE_PERIOD_MIN: '0',
    IBWATCH_TOKEN: 'integration-test-token-0123456789',
    IBWATCH_TOOL_TIMEOUT_MS: '20000',
    ...env,
  });
  const ctx = await openContext(config);
  const app = await buildApp(ctx);
  const byName = nodesByName(lab.topology());

  const h: Harness = {
    root,
    labDir,
    lab,
    ctx,
    app,
    scan: (kind) => ctx.scans.run(kind, 'cli'),
    async get<T>(url: string): Promise<T> {
      const r = await app.inject({ method: 'GET', url });
      if (r.statusCode !== 200) throw new Error(`GET ${url}: ${r.statusCode} ${r.body}`);
      return r.json() as T;
    },
    node(name) {
      const n = byName.get(name);
      if (!n) throw new Error(`no node "${name}" in the lab topology`);
      return n;
    },
    port(node, port) {
      return { node, port, key: `${h.node(node).guid}/${port}` };
    },
    peer(p) {
      const o = peerOf(h.lab, p);
      return h.port(o.node, o.port);
    },
    async linkFindings() {
      const all = await h.get<FindingRow[]>('/api/findings?state=current&limit=10000');
      return all.filter((f) => f.subjectType === 'port' || f.subjectType === 'link');
    },
    async openWorklist() {
      return (await h.get<WorklistEntry[]>('/api/worklist')).filter(
        (e) => e.state !== 'resolved' && e.clearedAt === null,
      );
    },
    async restartLab() {
      await stopLab(labDir);
      h.lab = await startLab({ gpus: GPUS, tiers: TIERS, dir: labDir });
    },
    async close() {
      try {
        await app.close(); // closes the database too
      } finally {
        await stopLab(labDir);
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
  return h;
}
