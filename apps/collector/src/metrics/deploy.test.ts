import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOf, REPO_ROOT, seedFabric, testContext } from '../test-support.ts';
import { promtool } from './promtool-support.ts';

// What deploy/ ships for Prometheus and Grafana, checked against the real promtool and against
// what /metrics exposes (every per-port family included: IBWATCH_METRICS_PORTS=all).
const DEPLOY = join(REPO_ROOT, 'deploy');
const ctx = testContext({ IBWATCH_METRICS_PORTS: 'all' });
let exposed: Set<string>;
beforeAll(async () => {
  await seedFabric(ctx);
  const app = await appOf(ctx);
  const body = (await app.inject('/metrics')).body;
  await app.close();
  exposed = new Set(['up']); // Prometheus' own series per scrape target
  for (const line of body.split('\n')) {
    const m = /^(?:# TYPE )?([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
    if (m) exposed.add(m[1]!);
  }
}, 60_000);
afterAll(() => ctx.cleanup());

/** The metric names a PromQL expression uses (ours, infiniband_exporter's names, and up). */
const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b(?:ibwatch|infiniband)_[a-zA-Z0-9_:]*|\bup(?=\{)/g)].map((m) => m[0]);

describe('deploy/prometheus', () => {
  it('promtool check rules passes on ibwatch.rules.yml', async () => {
    const r = await promtool(['check', 'rules', join(DEPLOY, 'prometheus/ibwatch.rules.yml')]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('SUCCESS: 8 rules found');
    expect(r.code).toBe(0);
  }, 60_000);

  it('promtool test rules passes on ibwatch.rules.test.yml', async () => {
    const r = await promtool(['test', 'rules', join(DEPLOY, 'prometheus/ibwatch.rules.test.yml')]);
    expect(r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.code).toBe(0);
  }, 60_000);

  it('promtool check config passes on the prometheus.yml example', async () => {
    const r = await promtool(['check', 'config', join(DEPLOY, 'prometheus/prometheus.yml')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 60_000);

  it('every rule names only metrics that /metrics exposes', () => {
    const rules = readFileSync(join(DEPLOY, 'prometheus/ibwatch.rules.yml'), 'utf8');
    const exprs = [...rules.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
    expect(exprs.length).toBe(8);
    for (const e of exprs) {
      expect(metricsIn(e).length, e).toBeGreaterThan(0);
      for (const name of metricsIn(e)) expect(exposed.has(name), `${name} in ${e}`).toBe(true);
    }
  });
});

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string; datasource?: { uid: string } }[];
  panels?: Panel[];
}

describe('deploy/grafana/ibwatch.json', () => {
  const dash = JSON.parse(readFileSync(join(DEPLOY, 'grafana/ibwatch.json'), 'utf8')) as {
    uid: string;
    title: string;
    panels: Panel[];
    templating: { list: { name: string; type: string; query: unknown }[] };
  };
  const panels = dash.panels.flatMap((p) => [p, ...(p.panels ?? [])]);

  it('has a uid, a title, panels with unique ids that fit the 24-column grid', () => {
    expect(dash.uid).toMatch(/^[a-z0-9-]+$/);
    expect(dash.title).toBeTruthy();
    expect(panels.length).toBeGreaterThan(10);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const p of panels) expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
  });

  it('takes its Prometheus from a datasource variable, in every panel and query', () => {
    const ds = dash.templating.list.find((v) => v.type === 'datasource');
    expect(ds).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const p of panels.filter((x) => x.type !== 'row')) {
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe('${datasource}');
    }
  });

  it("every panel's expr names metrics that /metrics exposes", () => {
    const queried = panels.filter((p) => p.type !== 'row');
    for (const p of queried) {
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets!) {
        const names = metricsIn(t.expr);
        expect(names.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const n of names) expect(exposed.has(n), `${p.title}: ${n}`).toBe(true);
      }
    }
  });
});
