import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortCounters } from '@ibwatch/fabric';
import { promtool } from '../metrics/promtool-support.ts';
import { ALL_PORTS_MAX } from '../metrics/ports.ts';
import { appOf, ERROR_PORT, seedCounters, seedFabric, testContext } from '../test-support.ts';

/** The body of /metrics on the seeded fabric with IBWATCH_METRICS_PORTS=mode. */
async function scrape(mode: string): Promise<string> {
  const ctx = testContext({ IBWATCH_METRICS_PORTS: mode });
  let app: FastifyInstance | undefined;
  try {
    await seedFabric(ctx);
    app = await appOf(ctx);
    const r = await app.inject('/metrics');
    expect(r.statusCode).toBe(200);
    return r.body;
  } finally {
    await app?.close();
    ctx.cleanup();
  }
}

const series = (body: string, prefix: string) => body.split('\n').filter((l) => l.startsWith(prefix));
const ERROR_LABELS =
  'guid="0xb0cf0e0300d33fc0",name="MF0;ib-switch-sequoia:MQM9700/U1",port="3",remote_guid="0x[0-9a-f]{16}"';

let problem: string;
let all: string;
let lastSweep: PortCounters[];
beforeAll(async () => {
  problem = await scrape('problem');
  all = await scrape('all');
  lastSweep = (await seedCounters())[1];
}, 60_000);

describe('GET /metrics with IBWATCH_METRICS_PORTS', () => {
  it('problem: the error rates of the last sweep, as before, and raw counters of the ports with a problem', () => {
    const errorRate = new RegExp(
      String.raw`^ibwatch_port_error_rate\{guid="0xb0cf0e0300d33fc0",port="3",` +
        String.raw`node="MF0;ib-switch-sequoia:MQM9700\/U1",counter="SymbolErrorCounter"\} 8\.3`,
      'm',
    );
    expect(problem).toMatch(errorRate);
    // infiniband_exporter's names and labels: the switch, its port, and the far end of the cable.
    expect(problem).toMatch(
      new RegExp(
        `^infiniband_switch_port_symbol_error_total\\{${ERROR_LABELS},remote_name="[^"]+",remote_port="\\d+"\\} \\d+$`,
        'm',
      ),
    );
    const errored = lastSweep.find((p) => p.nodeGuid === ERROR_PORT.nodeGuid && p.portNum === ERROR_PORT.portNum)!;
    // The larger of the twin and the classic column: a twin can be left at 0 while the classic counts.
    const readings = [errored.counters.SymbolErrorCounterExt, errored.counters.SymbolErrorCounter];
    const symbol = readings.filter((v): v is bigint => v !== undefined).reduce((a, b) => (b > a ? b : a));
    const line = series(problem, 'infiniband_switch_port_symbol_error_total{').find((l) => l.includes('port="3"'))!;
    expect(line.endsWith(` ${symbol}`)).toBe(true);
    const data = errored.counters.PortXmitDataExtended ?? errored.counters.PortXmitData!;
    const bytes = series(problem, 'infiniband_switch_port_transmit_data_bytes_total{').find((l) =>
      l.includes(`guid="${ERROR_PORT.nodeGuid}",name="MF0;ib-switch-sequoia:MQM9700/U1",port="3"`),
    )!;
    expect(Number(bytes.split(' ').pop())).toBe(Number(data) * 4);
    expect(series(problem, 'infiniband_switch_port_transmit_wait_total{').length).toBeGreaterThan(0);
  });

  it('all: every port of the last sweep, switches and HCAs, many more than the problem ports', () => {
    const problemPorts = series(problem, 'infiniband_').filter((l) => l.includes('_symbol_error_total{')).length;
    const allSwitch = series(all, 'infiniband_switch_port_symbol_error_total{').length;
    const allHca = series(all, 'infiniband_hca_port_symbol_error_total{').length;
    expect(allHca).toBeGreaterThan(0);
    expect(allSwitch + allHca).toBeGreaterThan(problemPorts * 5);
    // The real run's erring HCA ports keep SymbolErrorCounterExt at 0: the classic count is exported.
    const unkept = lastSweep.filter(
      (p) => p.counters.SymbolErrorCounterExt === 0n && (p.counters.SymbolErrorCounter ?? 0n) > 0n,
    );
    expect(unkept.length).toBeGreaterThan(5);
    let checked = 0;
    for (const p of unkept) {
      const line = series(all, 'infiniband_hca_port_symbol_error_total{').find(
        (l) => l.includes(`guid="${p.nodeGuid}"`) && l.includes(`port="${p.portNum}"`),
      );
      if (!line) continue;
      expect(line.endsWith(` ${p.counters.SymbolErrorCounter}`), line).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
    // One series per port: no port twice.
    const keys = series(all, 'infiniband_hca_port_receive_data_bytes_total{').map(
      (l) => /guid="[^"]+".*?port="\d+"/.exec(l)![0],
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('both pass promtool check metrics with no output', async () => {
    for (const body of [problem, all])
      expect(await promtool(['check', 'metrics'], body)).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('all on a fabric past the port limit fails the scrape with why, and problem still answers', async () => {
    const ctx = testContext({ IBWATCH_METRICS_PORTS: 'all' });
    let app: FastifyInstance | undefined;
    try {
      await seedFabric(ctx);
      const stored = ctx.db.prepare('SELECT COUNT(*) FROM ports WHERE port_num > 0').pluck().get() as number;
      // Ports of one made-up switch, enough to pass the limit by one.
      const node = ctx.db.prepare('SELECT guid FROM nodes LIMIT 1').pluck().get() as string;
      ctx.db
        .prepare(
          `WITH RECURSIVE k(n) AS (SELECT 1000 UNION ALL SELECT n + 1 FROM k WHERE n < 999 + ?)
           INSERT INTO ports (node_guid, port_num, first_seen, last_seen) SELECT ?, n, 0, 0 FROM k`,
        )
        .run(ALL_PORTS_MAX + 1 - stored, node);
      app = await appOf(ctx);
      const r = await app.inject('/metrics');
      expect(r.statusCode).toBe(500);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.body).toContain(`this fabric has ${(ALL_PORTS_MAX + 1).toLocaleString('en-US')} ports`);
      expect(r.body).toContain('IBWATCH_METRICS_PORTS=problem');
      const problemApp = await appOf({ ...ctx, config: { ...ctx.config, metricsPorts: 'problem' } });
      expect((await problemApp.inject('/metrics')).statusCode).toBe(200);
    } finally {
      await app?.close();
      ctx.cleanup();
    }
  }, 60_000);
});
