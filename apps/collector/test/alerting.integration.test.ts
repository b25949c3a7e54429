/**
 * Integration (issue 17.3): alerts leave ibwatch by both paths into the real Debian Alertmanager.
 * A live 256-GPU lab, a collector on it serving /metrics on a real port and pushing findings
 * (IBWATCH_ALERTMANAGER_URL), a real Prometheus scraping it with the shipped rules, and a real
 * Alertmanager. A leaf-spine cable trains down to 2X: the pushed IbwatchFinding and Prometheus's
 * IbwatchDegradedLinks must both be active in Alertmanager; after the repair both must resolve.
 *
 * The rules are deploy/prometheus/ibwatch.rules.yml with every `for:` cut to 1s (Prometheus waits
 * `for` before firing: 10 min for degraded links), written to the temp dir; nothing else changes.
 * Everything is polled with generous bounds, never slept on: this runs on a loaded 2-core machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degradeLink, restoreLink } from '@ibwatch/lab';
import { createNotifier, type Notifier } from '../src/notify/notifier.ts';
import { notifyingScans } from '../src/notify/notifying-scans.ts';
import type { ScanService } from '../src/scans/types.ts';
import { REPO_ROOT } from '../src/test-support.ts';
import { startHarness, until, type Harness } from './lab-harness.ts';

// Port base of this test: 7100-7199 is kept free for it on shared machines.
const AM_PORT = 7110;
const PROM_PORT = 7111;
const COLLECTOR_PORT = 7112;
const AM = `http://127.0.0.1:${AM_PORT}`;
const PROM = `http://127.0.0.1:${PROM_PORT}`;

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  generatorURL?: string;
  status: { state: string };
}

let h: Harness;
let notifier: Notifier;
let scans: ScanService;
const procs: ChildProcess[] = [];
const logs: Record<string, string> = { alertmanager: '', prometheus: '' };

function start(name: 'alertmanager' | 'prometheus', cmd: string, args: string[]): void {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (b: Buffer) => (logs[name] = (logs[name] + b.toString()).slice(-4000));
  p.stdout!.on('data', keep);
  p.stderr!.on('data', keep);
  p.on('error', (err) => (logs[name] += `\n${err.message} (installed by scripts/setup.sh)`));
  procs.push(p);
}

async function json<T>(url: string): Promise<T | undefined> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return r.ok ? ((await r.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

async function ready(url: string, name: string): Promise<void> {
  await until(
    () => `${name} at ${url} (log: ${logs[name]})`,
    async () => {
      try {
        return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok || undefined;
      } catch {
        return undefined;
      }
    },
    30_000,
    200,
  );
}

/** Alertmanager's active alerts; the last answer is kept for timeout messages. */
let lastSeen: AmAlert[] = [];
const amAlerts = async () => (lastSeen = (await json<AmAlert[]>(`${AM}/api/v2/alerts`)) ?? []);
const seen = () => JSON.stringify(lastSeen.map((a) => a.labels)).slice(0, 2000);

beforeAll(async () => {
  h = await startHarness({
    IBWATCH_ALERTMANAGER_URL: AM,
    IBWATCH_FABRIC_NAME: 'lab-a',
    IBWATCH_PUBLIC_URL: `http://127.0.0.1:${COLLECTOR_PORT}`,
    IBWATCH_NOTIFY_BACKOFF_MS: '500',
  });
  notifier = createNotifier(h.ctx.db, h.ctx.config, h.ctx.names);
  scans = notifyingScans(h.ctx.scans, notifier);
  await h.app.listen({ host: '127.0.0.1', port: COLLECTOR_PORT });

  const dir = h.root;
  writeFileSync(
    join(dir, 'am.yml'),
    "route: {receiver: 'null', group_wait: 1s, group_interval: 5s, repeat_interval: 1h}\nreceivers: [{name: 'null'}]\n",
  );
  start('alertmanager', 'prometheus-alertmanager', [
    `--config.file=${join(dir, 'am.yml')}`,
    `--storage.path=${join(dir, 'am-data')}`,
    `--web.listen-address=127.0.0.1:${AM_PORT}`,
    '--cluster.listen-address=',
  ]);
  const rules = readFileSync(join(REPO_ROOT, 'deploy/prometheus/ibwatch.rules.yml'), 'utf8');
  expect(rules).toMatch(/for: 10m/);
  writeFileSync(join(dir, 'rules.yml'), rules.replace(/for: \S+/g, 'for: 1s'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: {scrape_interval: 1s, evaluation_interval: 1s}',
      'rule_files: [rules.yml]',
      `alerting: {alertmanagers: [{static_configs: [{targets: ['127.0.0.1:${AM_PORT}']}]}]}`,
      'scrape_configs:',
      '  - job_name: ibwatch',
      `    static_configs: [{targets: ['127.0.0.1:${COLLECTOR_PORT}'], labels: {fabric: lab-a}}]`,
      '',
    ].join('\n'),
  );
  start('prometheus', 'prometheus', [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'prom-data')}`,
    `--web.listen-address=127.0.0.1:${PROM_PORT}`,
  ]);
  await ready(`${AM}/-/ready`, 'alertmanager');
  await ready(`${PROM}/-/ready`, 'prometheus');
}, 120_000);

afterAll(async () => {
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(
    procs.map((p) => (p.exitCode !== null ? null : new Promise((r) => p.once('exit', r)))).filter(Boolean),
  );
  notifier?.stop();
  await notifier?.idle();
  await h?.close();
}, 60_000);

async function scanOk(kind: 'topology' | 'pm' | 'sm') {
  const row = await scans.run(kind, 'cli');
  expect(row.status, `${kind} scan: ${row.error ?? ''}`).not.toBe('failed');
}

describe('alerts from a lab fault reach the real Alertmanager by both paths', () => {
  // Width faults on HCA links do not hold under ibsim (packages/lab README); leaf-spine ones do.
  const sw = () => h.port('leaf-r2-01', 40);

  it('a healthy lab: Prometheus scrapes the collector and no ibwatch alert is active', async () => {
    for (const kind of ['topology', 'sm', 'pm'] as const) await scanOk(kind);
    await notifier.idle();
    await until(
      'Prometheus to scrape the collector (up == 1)',
      async () => {
        const r = await json<{ data: { result: { value: [number, string] }[] } }>(
          `${PROM}/api/v1/query?query=${encodeURIComponent('up{job="ibwatch"}')}`,
        );
        return r?.data.result[0]?.value[1] === '1' || undefined;
      },
      60_000,
    );
    const degraded = (await amAlerts()).filter((a) => /IbwatchFinding|IbwatchDegradedLinks/.test(a.labels.alertname!));
    expect(degraded.filter((a) => a.labels.kind?.startsWith('link-degraded'))).toEqual([]);
    expect(degraded.filter((a) => a.labels.alertname === 'IbwatchDegradedLinks')).toEqual([]);
  }, 120_000);

  it('a cable trained down to 2X: the pushed finding and the rule alert are both active', async () => {
    const port = sw();
    const up = h.peer(port);
    expect(h.node(up.node).role).toBe('spine');
    await degradeLink(h.lab, port, { width: '2X' });
    await until(
      'the topology scan to open link-degraded-width',
      async () => {
        await scanOk('topology');
        return (await h.linkFindings()).find((f) => f.kind === 'link-degraded-width');
      },
      30_000,
    );
    const pushed = await until(
      () => `the pushed IbwatchFinding in Alertmanager (has: ${seen()})`,
      async () =>
        (await amAlerts()).find(
          (a) => a.labels.alertname === 'IbwatchFinding' && a.labels.kind === 'link-degraded-width',
        ),
      30_000,
    );
    expect(pushed.status.state).toBe('active');
    expect(pushed.labels).toMatchObject({ fabric: 'lab-a', severity: expect.any(String) });
    expect([pushed.labels.node, pushed.labels.remote_node].sort()).toEqual([port.node, up.node].sort());
    expect(pushed.generatorURL).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${COLLECTOR_PORT}/worklist\\?focus=`));
    const rule = await until(
      () => `the IbwatchDegradedLinks rule alert from Prometheus (has: ${seen()})`,
      async () => (await amAlerts()).find((a) => a.labels.alertname === 'IbwatchDegradedLinks'),
      90_000,
    );
    expect(rule.labels).toMatchObject({ fabric: 'lab-a', health: 'degraded', severity: 'major' });
  }, 180_000);

  it('after the repair both alerts resolve in Alertmanager', async () => {
    const port = sw();
    await restoreLink(h.lab, port);
    await until(
      'the topology scan to clear link-degraded-width',
      async () => {
        await scanOk('topology');
        const still = (await h.linkFindings()).some((f) => f.kind === 'link-degraded-width');
        return still ? undefined : true;
      },
      30_000,
    );
    await until(
      () => `both alerts to resolve (still: ${seen()})`,
      async () => {
        const left = (await amAlerts()).filter(
          (a) =>
            a.labels.alertname === 'IbwatchDegradedLinks' ||
            (a.labels.alertname === 'IbwatchFinding' && a.labels.kind === 'link-degraded-width'),
        );
        return left.length === 0 ? true : undefined;
      },
      90_000,
    );
    // The collector recorded no failed delivery on the way.
    const r = await h.get<{ failures: unknown[] }>('/api/notifications');
    expect(r.failures).toEqual([]);
  }, 180_000);
});
