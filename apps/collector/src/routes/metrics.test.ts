import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const SAMPLE = new RegExp(
  String.raw`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?:${LABEL}(?:,${LABEL})*)?\})? (?:[+-]?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)|NaN|[+-]Inf)$`,
);

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
        expect(typed.has(m![1]!), `no TYPE before ${line}`).toBe(true);
        expect(helped.has(m![1]!), `no HELP before ${line}`).toBe(true);
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
      /^ibwatch_port_error_rate\{guid="0xb0cf0e0300d33fc0",port="3",node="MF0;ib-switch-sequoia:MQM9700\/U1",counter="SymbolErrorCounter"\} 8\.3/m,
    );
    expect(body).toMatch(
      /^ibwatch_nccl_busbw_gbytes_per_second\{collective="all_reduce",cluster="a",gdr="disabled"\} 72\.\d+$/m,
    );
    expect(body).toMatch(/^ibwatch_findings_open\{severity="major"\} [1-9]\d*$/m);
    expect(body).toMatch(/^ibwatch_scan_failures_total\{kind="pm"\} 0$/m);
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

  it('declares each family once', () => {
    const types = body
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]);
    expect(new Set(types).size).toBe(types.length);
  });
});
