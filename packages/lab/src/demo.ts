/**
 * `pnpm lab demo`: what `scripts/demo.sh` runs beside the collector. Waits until the collector
 * has looked at the lab once, says where the dashboard is, imports the demo bandwidth history,
 * plays the scenario and prints, as they happen, both the faults it injects and the findings
 * ibwatch opens, clears and resolves about them, so the terminal tells the same story as the
 * dashboard.
 */
import { demoHistoryPlan, importDemoHistory } from './demo-history.ts';
import { isAlive } from './proc.ts';
import { attachLab } from './runner.ts';
import { clock, pause, playScenario, type ScenarioName, scenarioSteps } from './scenario.ts';

export interface DemoOptions {
  labDir: string;
  /** The collector's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The URL to print for a browser (default `url`). */
  dashboardUrl?: string;
  token: string;
  scenario: ScenarioName;
  /** Time compression of the scenario (tests); default 1. */
  speed?: number;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** How long the collector may take to finish its first scans; default 3 minutes. */
  readyTimeoutMs?: number;
  /** The collector's pid when it runs beside us: its exit ends the demo at once. */
  collectorPid?: number;
}

interface ActiveFinding {
  id: number;
  severity: string;
  kind: string;
  title: string;
  /** When the latest scan that covered it stopped seeing it (null: observed now). */
  clearedAt?: number | null;
}

async function getJson<T>(url: string, token: string): Promise<{ status: number; body: T | null }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: res.ok ? ((await res.json()) as T) : null };
}

function checkAlive(pid: number | undefined): void {
  if (pid !== undefined && !isAlive(pid)) throw new Error(`the collector (pid ${pid}) exited`);
}

/**
 * Waits until the collector answers ready and its first PM sweep is stored. Returns false when
 * the signal aborted the wait (Ctrl-C while the collector starts).
 */
export async function waitForCollector(
  url: string,
  token: string,
  o: { timeoutMs: number; pid?: number; signal?: AbortSignal },
): Promise<boolean> {
  const deadline = Date.now() + o.timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (o.signal?.aborted) return false;
    checkAlive(o.pid);
    try {
      const ready = await getJson<unknown>(`${url}/api/ready`, token);
      const pm = await getJson<{ status: string }[]>(`${url}/api/scans?kind=pm`, token);
      if (ready.status === 200 && pm.body?.some((s) => s.status === 'ok')) return true;
      last = ready.status === 200 ? 'no PM sweep stored yet' : `/api/ready answered ${ready.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await pause(1000, o.signal);
  }
  throw new Error(`the collector at ${url} was not ready within ${o.timeoutMs / 1000} s (last: ${last})`);
}

/**
 * The lines for one poll of the active findings against the previous one: opened (and, when it
 * was already gone by this poll, cleared too), cleared (the latest scan no longer sees it: it
 * resolves after the clean period unless seen again), observed again, and resolved (it left the
 * active list: the clean period passed, or someone marked it fixed).
 */
export function findingChanges(
  known: ReadonlyMap<number, ActiveFinding>,
  now: ReadonlyMap<number, ActiveFinding>,
): string[] {
  const lines: string[] = [];
  const cleared = (f: ActiveFinding) => `cleared (no longer observed; resolves after the clean period): ${f.title}`;
  for (const [id, f] of now) {
    const was = known.get(id);
    if (!was) {
      lines.push(`${f.severity.toUpperCase()} ${f.kind}: ${f.title}`);
      if (f.clearedAt) lines.push(cleared(f));
    } else if (!was.clearedAt && f.clearedAt) lines.push(cleared(f));
    else if (was.clearedAt && !f.clearedAt) lines.push(`observed again, ${f.severity.toUpperCase()}: ${f.title}`);
  }
  for (const [id, f] of known) if (!now.has(id)) lines.push(`resolved: ${f.title}`);
  return lines;
}

/**
 * Prints every finding that opens, clears, is observed again or is resolved, polling every
 * `everyMs`. The ones active at start are taken as known. Stops with the signal; throws when the
 * collector has not answered three polls in a row (the demo is over then).
 */
export async function watchFindings(
  url: string,
  token: string,
  o: { log: (line: string) => void; t0: number; signal?: AbortSignal; everyMs?: number; pid?: number },
): Promise<void> {
  const active = async () => {
    const r = await getJson<ActiveFinding[]>(`${url}/api/findings?state=active`, token);
    if (!r.body) throw new Error(`/api/findings answered ${r.status}`);
    return new Map(r.body.map((f) => [f.id, f]));
  };
  let known = await active();
  let misses = 0;
  while (!o.signal?.aborted) {
    await pause(o.everyMs ?? 3000, o.signal);
    if (o.signal?.aborted) break;
    let now: Map<number, ActiveFinding>;
    try {
      now = await active();
      misses = 0;
    } catch (err) {
      checkAlive(o.pid);
      if (++misses >= 3) throw new Error(`the collector stopped answering: ${(err as Error).message}`);
      continue;
    }
    const stamp = clock((Date.now() - o.t0) / 1000);
    for (const line of findingChanges(known, now)) o.log(`${stamp}  ibwatch: ${line}`);
    known = now;
  }
}

/** The whole demo; resolves when the scenario is over and the signal aborts the watcher. */
export async function runDemo(o: DemoOptions): Promise<void> {
  const lab = await attachLab(o.labDir);
  const steps = scenarioSteps(o.scenario, lab.topology());
  o.log('waiting for the collector to finish its first scans of the lab ...');
  const ready = await waitForCollector(o.url, o.token, {
    timeoutMs: o.readyTimeoutMs ?? 180_000,
    pid: o.collectorPid,
    signal: o.signal,
  });
  if (!ready) return;
  o.log(`ibwatch demo: the dashboard is at ${o.dashboardUrl ?? o.url}  (write token: ${o.token})`);

  const plan = demoHistoryPlan(Date.now());
  const imported = await importDemoHistory(o.url, o.token, plan);
  o.log(
    imported.runs
      ? `imported ${imported.runs} nccl-tests runs as demo bandwidth history (label demo=true, one a night over ` +
          `${plan.length} days, from packages/parsers/fixtures/nccl): see Bandwidth. The ${imported.resolved} ` +
          'findings about those old nights are resolved, so the overview shows what happens now'
      : 'the demo bandwidth history is already in this database',
  );

  const t0 = Date.now();
  // The watcher ends the demo when the collector goes away; the caller's signal ends both.
  const stop = new AbortController();
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  let watchError: unknown;
  const watching = watchFindings(o.url, o.token, { log: o.log, t0, signal: stop.signal, pid: o.collectorPid }).catch(
    (err: unknown) => {
      watchError = err;
      stop.abort();
    },
  );
  if (steps.length) {
    o.log(`scenario "${o.scenario}": ${steps.length} events over ${clock(steps.at(-1)!.atS)} (m:ss from now)`);
    const failed = await playScenario(lab, steps, { log: o.log, speed: o.speed, signal: stop.signal, startedAt: t0 });
    if (!stop.signal.aborted)
      o.log(
        failed.length
          ? `the story is over, ${failed.length} event(s) failed (above); ibwatch keeps watching the lab`
          : 'the story is over; ibwatch keeps watching the lab (try `pnpm lab fault ...`, see docs/demo.md)',
      );
  } else {
    o.log(`scenario "${o.scenario}": a healthy fabric; break it with \`pnpm lab fault ...\` (see docs/demo.md)`);
  }
  await watching;
  if (watchError) throw watchError;
}
