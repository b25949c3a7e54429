/**
 * Integration: the demo (`scripts/demo.sh` -> `pnpm lab demo`) against the real collector on a
 * live 256-GPU lab. The demo runner waits for the first scans, imports its bandwidth history
 * through the API and prints the findings ibwatch opens; then every event of the story is
 * played on the lab, one at a time with the scans the demo's schedule would run, and the
 * collector must show each one as the tour in docs/demo.md promises.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  topologyObjects,
  type FindingRow,
  type NcclRunRow,
  type PortDetailReply,
  type TopologyReply,
} from '@ibwatch/fabric';
import {
  DEMO_LABELS,
  demoHistoryPlan,
  importDemoHistory,
  runDemo,
  type ScenarioStep,
  storyCast,
  storyScenario,
} from '@ibwatch/lab';
import { createNcclRepo } from '../src/db/nccl-repo.ts';
import { startHarness, until, type Harness, type Port } from './lab-harness.ts';

const TOKEN = 'integration-test-token-0123456789';
let h: Harness;
let url: string;
let steps: ScenarioStep[];
let cast: ReturnType<typeof storyCast>;

beforeAll(async () => {
  h = await startHarness({ IBWATCH_AUTO_RESOLVE_SWEEPS: '1000' });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  steps = storyScenario(h.lab.topology());
  cast = storyCast(h.lab.topology());
}, 60_000);

afterAll(async () => {
  await h?.close();
}, 30_000);

/** Plays the story's steps whose text matches, in order. */
async function play(re: RegExp): Promise<void> {
  const chosen = steps.filter((s) => re.test(s.say));
  expect(chosen.length, `steps matching ${re}`).toBeGreaterThan(0);
  for (const s of chosen) await s.act(h.lab);
}

async function scanOk(kind: 'topology' | 'pm' | 'sm'): Promise<void> {
  const row = await h.scan(kind);
  expect(row.status, `${kind} scan: ${row.error ?? ''}`).not.toBe('failed');
}

async function active(kind: string): Promise<FindingRow[]> {
  return (await h.get<FindingRow[]>(`/api/findings?state=active&limit=10000`)).filter((f) => f.kind === kind);
}

const portOf = (p: { node: string; port: number }): Port => h.port(p.node, p.port);
const on = (f: FindingRow, p: Port) => f.subjectKey.includes(p.key);

describe('the demo on a live lab', () => {
  it('waits for the first scans, imports its history as demo data and prints the findings ibwatch opens', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const demo = runDemo({
      labDir: h.labDir,
      url,
      token: TOKEN,
      scenario: 'quiet',
      log: (l) => lines.push(l),
      signal: stop.signal,
      readyTimeoutMs: 60_000,
    });
    const failed = demo.catch((e: unknown) => e);
    try {
      // Nothing is ready before the collector has scanned: the demo waits (no PM sweep yet).
      await new Promise((r) => setTimeout(r, 1500));
      expect(lines).toEqual(['waiting for the collector to finish its first scans of the lab ...']);
      for (const kind of ['topology', 'sm', 'pm'] as const) await scanOk(kind);
      await until(
        'the demo to start its scenario',
        async () => (lines.some((l) => /scenario "quiet"/.test(l)) ? true : undefined),
        60_000,
      );
      expect(lines.join('\n')).toContain(`the dashboard is at ${url}`);
      expect(lines.join('\n')).toMatch(/imported 28 nccl-tests runs as demo bandwidth history/);

      // The first event of the story, seen by the next PM sweep, is printed by the watcher.
      await play(/symbol errors/);
      await scanOk('pm');
      const hca = portOf(cast.noisyHca);
      const printed = await until(
        () => `a printed finding about ${cast.noisyHca.node} in:\n${lines.join('\n')}`,
        async () => lines.find((l) => l.includes('ibwatch: ') && l.includes(cast.noisyHca.node)),
        20_000,
      );
      expect(printed).toMatch(/^\d+:\d\d {2}ibwatch: (MAJOR|CRITICAL|MINOR) symbol-errors: /);
      expect((await active('symbol-errors')).some((f) => on(f, hca))).toBe(true);
    } finally {
      stop.abort();
    }
    expect(await failed).toBeUndefined();

    const runs = await h.get<NcclRunRow[]>('/api/nccl/runs?limit=1000');
    expect(runs).toHaveLength(28);
    expect(runs.every((r) => r.labels.demo === true && r.labels.cluster === DEMO_LABELS.cluster)).toBe(true);
    expect(runs.filter((r) => r.verdict === 'host-memory-fallback')).toHaveLength(3);
    expect(runs.filter((r) => r.verdict === 'pass').length).toBeGreaterThanOrEqual(20);
    // Stored with the nights they ran on, not the minute they were imported.
    const repo = createNcclRepo(h.ctx.db);
    const windows = runs.map((r) => repo.get(r.id)!.window[0]).sort((a, b) => a - b);
    expect(windows).toEqual(demoHistoryPlan(Date.now()).map((p) => p.startedAt));
    // The history's old nights leave no open finding, only resolved ones; the story's stays open.
    const findings = await h.get<FindingRow[]>('/api/findings?limit=10000');
    const aboutRuns = findings.filter((f) => f.subjectType === 'run');
    expect(aboutRuns.length).toBeGreaterThanOrEqual(3);
    expect(aboutRuns.filter((f) => f.state !== 'resolved').map((f) => f.title)).toEqual([]);
    expect(lines.join('\n')).toContain(`The ${aboutRuns.length} findings about those old nights are resolved`);
    // A second demo on the same database does not double the history.
    expect(await importDemoHistory(url, TOKEN, demoHistoryPlan(Date.now()))).toEqual({ runs: 0, resolved: 0 });
  }, 120_000);

  it('names racks from the lab node-name map without any setting', async () => {
    const topo = topologyObjects(await h.get<TopologyReply>('/api/topology'));
    expect(topo.nodes.filter((n) => !n.rack).map((n) => n.name)).toEqual([]);
  });

  it('shows the leaf-spine link trained down to 2X at the next topology scan', async () => {
    await play(/trains down to 2X/);
    await scanOk('topology');
    const up = portOf(cast.uplink.a);
    const f = (await active('link-degraded-width')).filter((x) => on(x, up));
    expect(f.map((x) => x.title)).toEqual([expect.stringContaining('runs at 2X instead of 4X')]);
  }, 120_000);

  it('shows the host link going down and flapping', async () => {
    const sw = portOf(cast.hostLink.switchEnd);
    await play(/goes down \(flap 1 /);
    await scanOk('topology');
    expect((await active('link-down')).some((x) => on(x, sw))).toBe(true);
    await scanOk('pm');
    await play(/is back up/);
    expect((await active('link-flapping')).some((x) => on(x, sw))).toBe(true);
  }, 120_000);

  it('shows the master SM killed and the standby taking over', async () => {
    await play(/master subnet manager is killed/);
    await scanOk('sm');
    const failovers = await active('sm-failover');
    expect(failovers.map((f) => f.title)).toEqual([expect.stringMatching(/master moved from head-01 .* to head-02 /)]);
  }, 120_000);

  it('sees the 2X link back at 4X after the repair', async () => {
    await play(/reseated: back to 4X/);
    await scanOk('topology');
    for (const end of [cast.uplink.a, cast.uplink.b]) {
      const p = portOf(end);
      const [guid, port] = p.key.split('/');
      const d = await h.get<PortDetailReply>(`/api/ports/${guid}/${port}`);
      expect(d.port.widthActive, `${end.node} port ${end.port}`).toBe('4X');
    }
  }, 120_000);
});
