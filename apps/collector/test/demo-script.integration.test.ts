/**
 * Integration: `bash scripts/demo.sh`, the README's first command, as a visitor runs it (with the
 * quiet scenario, a lab dir, database and port of its own): it brings up the lab and the
 * collector, prints the dashboard's URL, serves the dashboard with racks from the lab's
 * node-name map and the demo history, and Ctrl-C stops the collector and the lab.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { topologyObjects, type NcclRunRow, type TopologyReply } from '@ibwatch/fabric';
import { isAlive, readState } from '@ibwatch/lab';
import { until } from './lab-harness.ts';

const REPO = resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'ibwatch-demo-sh-'));
const labDir = join(tmp, 'lab');
let pgid: number | undefined;

afterAll(() => {
  if (pgid !== undefined && isAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => done(port));
    });
  });
}

describe('scripts/demo.sh', () => {
  it('serves the dashboard with racks and the demo history, and Ctrl-C stops collector and lab', async () => {
    const port = await freePort();
    // Only the demo's own settings: a developer's IBWATCH_* exports must not change the run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IBWATCH_')));
    const child = spawn('bash', ['scripts/demo.sh'], {
      cwd: REPO,
      // Its own process group, like a terminal's foreground job, so Ctrl-C can reach all of it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...env,
        IBWATCH_PORT: String(port),
        IBWATCH_LAB_DIR: labDir,
        IBWATCH_DB: join(tmp, 'demo.db'),
        IBWATCH_DEMO_SCENARIO: 'quiet',
      },
    });
    pgid = child.pid;
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

    // The first start may build the dashboard (tens of seconds on two cores).
    await until(
      () => `the dashboard URL in the demo's output:\n${out}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`demo.sh exited ${child.exitCode}:\n${out}`);
        return out.includes(`the dashboard is at http://localhost:${port}`) ? true : undefined;
      },
      240_000,
    );
    const base = `http://127.0.0.1:${port}`;
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('<div id="root">');
    const topo = topologyObjects((await (await fetch(`${base}/api/topology`)).json()) as TopologyReply);
    expect(topo.nodes.length).toBeGreaterThan(0);
    expect(topo.nodes.filter((n) => !n.rack).map((n) => n.name)).toEqual([]);
    await until('the demo history', async () => (out.includes('scenario "quiet"') ? true : undefined), 60_000);
    const runs = (await (await fetch(`${base}/api/nccl/runs`)).json()) as NcclRunRow[];
    expect(runs.filter((r) => r.labels.demo === true)).toHaveLength(28);
    expect(readFileSync(join(tmp, 'demo-collector.log'), 'utf8')).not.toMatch(/not found|"level":[45]0/);

    const state = readState(labDir);
    expect(state).not.toBeNull();
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    expect(out).toContain('demo: stopped');
    expect(existsSync(join(labDir, 'state.json'))).toBe(false);
    for (const pid of [state!.ibsim.pid, ...state!.sms.map((s) => s.pid)]) if (pid) expect(isAlive(pid)).toBe(false);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();
  }, 400_000);
});
