/**
 * The demo's bandwidth history: four weeks of nightly 2-node all_reduce runs made of the
 * repository's nccl-tests fixtures (packages/parsers/fixtures/nccl), imported through the
 * collector's API with their backdated times and the label `demo: true`, so the Bandwidth page
 * has a story too: passing nights, a few marginal ones, three nights of GPUDirect RDMA off
 * (NCCL staging through host memory at ~72 GB/s) and the recovery.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the fixtures are, from this file. */
export const NCCL_FIXTURES = fileURLToPath(new URL('../../parsers/fixtures/nccl/', import.meta.url));

/** The fixtures the history is made of, and what each one is. */
export const HISTORY_FIXTURES = {
  /** Hand-made from nccl-tests' printf formats: 2 x 8 H100, GDR on, ~380 GB/s at 8 GiB. */
  good: 'all_reduce_perf.gdr-enabled.multinode.good.txt',
  /** A real public output: 2 x 8 H100, 338.8 GB/s at 8 GiB, under the 360 GB/s target. */
  real: 'all_reduce_perf.multinode.good.txt',
  /** Hand-made: the same fabric with GPUDirect RDMA disabled, ~72 GB/s. */
  gdrOff: 'all_reduce_perf.gdr-disabled.multinode.good.txt',
} as const;

/** Labels of every demo run; `demo: true` tells them from measured runs. */
export const DEMO_LABELS = { cluster: 'demo', nodes: 2, gpuModel: 'H100', runBy: 'ibwatch demo', demo: true };

export interface PlannedRun {
  fixture: string;
  /** The run's name as stored (`demo-<date>-<fixture>`). */
  name: string;
  startedAt: number;
  finishedAt: number;
}

const DAY = 86_400_000;

/** The fixture of the night `daysAgo` days back (28 = the oldest). */
export function fixtureOfNight(daysAgo: number): string {
  if (daysAgo >= 12 && daysAgo <= 14) return HISTORY_FIXTURES.gdrOff;
  if (daysAgo === 24 || daysAgo === 19 || daysAgo === 6) return HISTORY_FIXTURES.real;
  return HISTORY_FIXTURES.good;
}

/**
 * One run a night for the `nights` nights before `now`, oldest first (the import order the
 * regression baseline expects), each starting at 02:10 UTC and taking 7 minutes.
 */
export function demoHistoryPlan(now: number, nights = 28): PlannedRun[] {
  const today = Math.floor(now / DAY) * DAY;
  const runs: PlannedRun[] = [];
  for (let d = nights; d >= 1; d--) {
    const startedAt = today - d * DAY + (2 * 60 + 10) * 60_000;
    const fixture = fixtureOfNight(d);
    const date = new Date(startedAt).toISOString().slice(0, 10);
    runs.push({ fixture, name: `demo-${date}-${fixture}`, startedAt, finishedAt: startedAt + 7 * 60_000 });
  }
  return runs;
}

interface RunListItem {
  labels: Record<string, unknown>;
}

interface FindingItem {
  id: number;
  subjectKey: string;
}

export interface HistoryImport {
  /** Runs imported (0 when the database already held the demo history). */
  runs: number;
  /** Findings about those runs, resolved after the import (see {@link importDemoHistory}). */
  resolved: number;
}

/**
 * Imports the plan through `POST /api/nccl-runs` of the collector at `url` (the token is needed
 * for writes). Skips it when the collector already holds demo runs, so a demo restarted on the
 * same database does not double its history.
 *
 * The collector judges each run as it is imported, so the history's failed and regressed nights
 * open findings stamped with today's import time, weeks after those nights. They are resolved
 * right away: on the dashboard the story is what happens now, and the history stays on the
 * Bandwidth page (verdicts, regression marks) and among the resolved findings.
 */
export async function importDemoHistory(
  url: string,
  token: string,
  plan: PlannedRun[],
  fixturesDir = NCCL_FIXTURES,
): Promise<HistoryImport> {
  const auth = { authorization: `Bearer ${token}` };
  const list = await fetch(`${url}/api/nccl/runs?limit=10000`, { headers: auth });
  if (!list.ok) throw new Error(`GET /api/nccl/runs answered ${list.status}: ${await list.text()}`);
  if (((await list.json()) as RunListItem[]).some((r) => r.labels.demo === true)) return { runs: 0, resolved: 0 };
  const subjects = new Set<string>();
  for (const run of plan) {
    const res = await fetch(`${url}/api/nccl-runs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        text: readFileSync(join(fixturesDir, run.fixture), 'utf8'),
        name: run.name,
        labels: DEMO_LABELS,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
      }),
    });
    if (res.status !== 201) throw new Error(`importing ${run.name}: ${res.status} ${await res.text()}`);
    subjects.add(`run:${((await res.json()) as { id: number }).id}`);
  }
  const found = await fetch(`${url}/api/findings?state=active&limit=10000`, { headers: auth });
  if (!found.ok) throw new Error(`GET /api/findings answered ${found.status}: ${await found.text()}`);
  const stale = ((await found.json()) as FindingItem[]).filter((f) => subjects.has(f.subjectKey));
  for (const f of stale) {
    const res = await fetch(`${url}/api/findings/${f.id}/resolve`, { method: 'POST', headers: auth });
    if (!res.ok) throw new Error(`resolving finding ${f.id}: ${res.status} ${await res.text()}`);
  }
  return { runs: plan.length, resolved: stale.length };
}
