import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promtool } from '../metrics/promtool-support.ts';
import { appOf, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
let body: string;
beforeAll(async () => {
  await seedFabric(ctx);
  app = await appOf(ctx);
  const r = await app.inject('/metrics');
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  body = r.body;
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});

// The Prometheus text exposition format 0.0.4: name{label="value",...} value
const LABEL = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"`;
const VALUE = String.raw`(?:[+-]?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)|NaN|[+-]Inf)`;
const SAMPLE = new RegExp(String.raw`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?:${LABEL}(?:,${LABEL})*)?\})? ${VALUE}$`);

describe('GET /metrics', () => {
  it('is valid exposition text: every sample line parses and belongs to a family with HELP and TYPE', () => {
    const lines = body.trimEnd().split('\n');
    const typed = new Map<string, string>();
    const helped = new Set<string>();
    for (const line of lines) {
      const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) \S/.exec(line);
      const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (help) helped.add(help[1]!);
      else if (type) typed.set(type[1]!, type[2]!);
      else {
        const m = SAMPLE.exec(line);
        expect(m, `not a sample line: ${line}`).not.toBeNull();
        // A histogram's samples are its _bucket, _sum and _count series.
        const base = m![1]!.replace(/_(bucket|sum|count)$/, '');
        const family = typed.get(base) === 'histogram' ? base : m![1]!;
        expect(typed.has(family), `no TYPE before ${line}`).toBe(true);
        expect(helped.has(family), `no HELP before ${line}`).toBe(true);
      }
    }
    expect(body.endsWith('\n')).toBe(true);
  });

  it('exports the fabric state behind the dashboards', () => {
    expect(body).toMatch(/^ibwatch_sm_masters 1$/m);
    expect(body).toMatch(/^ibwatch_sm_missing 0$/m);
    expect(body).toMatch(/^ibwatch_sm_rogue 0$/m);
    expect(body).toMatch(/^ibwatch_links\{health="errors"\} [1-9]\d*$/m);
    expect(body).toMatch(
      /^ibwatch_nccl_busbw_gbytes_per_second\{collective="all_reduce",cluster="a",gdr="disabled"\} 72\.\d+$/m,
    );
    expect(body).toMatch(/^ibwatch_findings_open\{severity="major"\} [1-9]\d*$/m);
    // Counters of this process: the seed's two PM sweeps, its imports, the errors they stored.
    expect(body).toMatch(/^ibwatch_scans_total\{kind="pm",status="failed"\} 0$/m);
    expect(body).toMatch(/^ibwatch_scans_total\{kind="pm",status="ok"\} 2$/m);
    expect(body).toMatch(/^ibwatch_pm_sweeps_total 2$/m);
    expect(body).toMatch(/^ibwatch_imports_total\{kind="nccl",status="ok"\} 2$/m);
    expect(body).toMatch(/^ibwatch_error_increments_total\{counter="SymbolErrorCounter"\} 500$/m);
    expect(body).toMatch(/^ibwatch_error_increments_total\{counter="LinkDownedCounter"\} 3$/m);
    expect(body).toMatch(/^ibwatch_scan_duration_seconds_count\{kind="pm"\} 2$/m);
    expect(body).toMatch(/^ibwatch_findings_open_by_kind\{severity="major",kind="[a-z_-]+"\} [1-9]\d*$/m);
    expect(body).toMatch(/^ibwatch_sm_standbys \d+$/m);
  });

  it('exports what the wall screen says: the status word, broken-now rows, links not ok by name', () => {
    expect(body).toMatch(/^ibwatch_fabric_status\{status="DEGRADED"\} 1$/m);
    expect(body).toMatch(/^ibwatch_fabric_status\{status="OK"\} 0$/m);
    expect(body).toMatch(/^ibwatch_fabric_status_code 1$/m);
    expect(body).toMatch(/^ibwatch_broken_now\{kind="cable"\} [1-9]\d*$/m);
    // One series per coloured link, ends named, as many as ibwatch_links counts.
    const unhealthy = body.split('\n').filter((l) => l.startsWith('ibwatch_link_unhealthy{'));
    const errors = Number(/^ibwatch_links\{health="errors"\} (\d+)$/m.exec(body)![1]);
    expect(unhealthy).toHaveLength(errors);
    expect(unhealthy.join('\n')).toMatch(/health="errors",a_guid="0x[0-9a-f]{16}",a_port="\d+",a_node="[^"]+",b_guid=/);
    expect(body).toMatch(/^ibwatch_findings_current\{severity="major"\} \d+$/m);
  });

  it('passes promtool check metrics with no output at all', async () => {
    const r = await promtool(['check', 'metrics'], body);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('exports no NaN, no retained-row sums, and no per-port series unless asked', () => {
    expect(body).not.toMatch(/ NaN$/m);
    expect(body).not.toMatch(/ibwatch_fabric_error_increase_total|ibwatch_scan_failures_total/);
    expect(body).not.toMatch(/^(ibwatch_port_error_rate|infiniband_)/m);
  });

  it('gives on-demand imports no scan timestamp a "scan is stale" rule would alert on', () => {
    expect(body).not.toMatch(/^ibwatch_scan_last_success_timestamp_seconds\{kind="import-/m);
    expect(body).toMatch(/^ibwatch_import_last_success_timestamp_seconds\{kind="nccl"\} \d+(\.\d+)?$/m);
    expect(body).toMatch(/^ibwatch_scan_last_duration_seconds\{kind="pm"\} \d/m);
  });

  it('declares each family once', () => {
    const types = body
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]);
    expect(new Set(types).size).toBe(types.length);
  });
});
