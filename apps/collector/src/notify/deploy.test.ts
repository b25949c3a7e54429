// What deploy/ and docker-compose.yml ship for alerting (docs/alerting.md), checked with the real
// amtool and promtool (Debian's prometheus-alertmanager and prometheus, installed by
// scripts/setup.sh) and against the labels the notifier sends.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promtool } from '../metrics/promtool-support.ts';
import { REPO_ROOT } from '../test-support.ts';

const AM_CONFIG = join(REPO_ROOT, 'deploy/alertmanager/alertmanager.yml');

function amtool(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('amtool', args, { timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(new Error(`amtool ${args.join(' ')}: ${err.message} (installed by scripts/setup.sh)`));
        return;
      }
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe('deploy/alertmanager/alertmanager.yml', () => {
  it('amtool check-config passes', async () => {
    const r = await amtool(['check-config', AM_CONFIG]);
    expect(r.stderr + r.stdout).toMatch(/SUCCESS/);
    expect(r.code).toBe(0);
  });

  it.each([
    // A pushed cable finding goes to the cabling team, a critical one of any path pages.
    [['alertname=IbwatchFinding', 'kind=link-degraded-width', 'severity=major', 'fabric=a', 'rack=R07'], 'cabling'],
    [['alertname=IbwatchFinding', 'kind=symbol-errors', 'severity=critical', 'fabric=a'], 'noc-pager'],
    [['alertname=IbwatchNoMasterSM', 'severity=critical', 'fabric=a'], 'noc-pager'],
    [['alertname=IbwatchFinding', 'kind=sm-no-standby', 'severity=major', 'fabric=a'], 'noc'],
  ])('routes %j to %s', async (labels, receiver) => {
    const r = await amtool(['config', 'routes', 'test', `--config.file=${AM_CONFIG}`, ...labels]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(receiver);
  });
});

describe('docker-compose.yml', () => {
  const compose = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');

  it('runs Prometheus and Alertmanager beside the collector, wired to each other', async () => {
    expect(compose).toMatch(/^ {2}prometheus:\n/m);
    expect(compose).toMatch(/^ {2}alertmanager:\n/m);
    expect(compose).toContain('IBWATCH_ALERTMANAGER_URL: http://alertmanager:9093');
    expect(compose).toContain('--config.file=/etc/prometheus/prometheus.compose.yml');
    expect(compose).toContain('./deploy/prometheus:/etc/prometheus:ro');
    expect(compose).toContain('./deploy/alertmanager:/etc/alertmanager:ro');
    const prom = readFileSync(join(REPO_ROOT, 'deploy/prometheus/prometheus.compose.yml'), 'utf8');
    expect(prom).toContain("targets: ['alertmanager:9093']");
    expect(prom).toContain("targets: ['ibwatch:8080']");
    const r = await promtool(['check', 'config', join(REPO_ROOT, 'deploy/prometheus/prometheus.compose.yml')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
