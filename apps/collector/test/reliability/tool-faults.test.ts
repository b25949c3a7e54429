// Tool faults through the REAL tool runner: PATH points at a temp dir of deliberately broken
// executables named like the diags tools (hang, exit 3, stderr only, flood, missing). The
// healthy ones `cat` the real lab captures. What is under test is our runner and scan pipeline.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContext, type Context } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import { cleanupTemp, PARSER_FIXTURES, tempDir, testConfig, TOKEN } from './support.ts';

const TIMEOUT_MS = 600;
const CAP_BYTES = 1 << 20;
const lab = (n: string) => join(PARSER_FIXTURES, 'diags', n);

let bin: string;
let ctx: Context;
let app: FastifyInstance;
const savedPath = process.env.PATH;

/** Healthy tools: the real captures of infiniband-diags 44 against the lab. */
const HEALTHY: Record<string, string> = {
  // `--cache FILE /dev/null` (the PM sweep's fabric snapshot) writes FILE and prints nothing.
  ibnetdiscover: `[ "$1" = --cache ] && { echo snapshot > "$2"; exit 0; }; cat '${lab('lab-ibnetdiscover.txt')}'`,
  iblinkinfo: `cat '${lab('lab-iblinkinfo.txt')}'`,
  ibqueryerrors:
    `case "$*" in *--counters*) cat '${lab('lab-ibqueryerrors-counters.txt')}';; *) cat ` +
    `'${lab('lab-ibqueryerrors-nothr.txt')}'; exit 1;; esac`,
  saquery: `cat '${lab('lab-saquery-smir.txt')}'`,
  sminfo: `cat '${lab('lab-sminfo.txt')}'`,
};

function tool(name: string, body: string | null): void {
  const path = join(bin, name);
  rmSync(path, { force: true });
  if (body === null) return;
  // `-V` answers like diags 44 (on stderr), whatever the fault.
  writeFileSync(path, `#!/bin/sh\ncase "$1" in -V) echo "${name} BUILD VERSION: 44.0" >&2; exit 0;; esac\n${body}\n`);
  chmodSync(path, 0o755);
}

function healthy(): void {
  for (const [name, body] of Object.entries(HEALTHY)) tool(name, body);
}

beforeAll(async () => {
  const dir = tempDir('tools');
  bin = join(dir, 'bin');
  mkdirSync(bin);
  // Only the fake tools and the basic shell utilities they use are reachable.
  process.env.PATH = `${bin}:/usr/bin:/bin`;
  ctx = createContext(
    testConfig(dir, {
      IBWATCH_SOURCE: 'diags',
      IBWATCH_TOOL_TIMEOUT_MS: String(TIMEOUT_MS),
      IBWATCH_TOOL_MAX_OUTPUT_BYTES: String(CAP_BYTES),
    }),
  );
  app = await buildApp(ctx);
  healthy();
  for (const k of ['topology', 'sm', 'pm'] as const) expect((await ctx.scans.run(k, 'cli')).status).not.toBe('failed');
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await app.close();
  cleanupTemp();
});

describe('tool faults', () => {
  it('a tool that hangs is killed at its timeout and the scan fails saying so', async () => {
    const pidFile = join(bin, 'hang.pid');
    tool('ibnetdiscover', `echo $$ > '${pidFile}'; exec sleep 100`);
    const t0 = Date.now();
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/^ibnetdiscover -o 8: killed after timeout \(\d+ ms\)$/);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 5000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')).toBe(false);
  });

  it('a tool that exits non-zero fails the scan with its exit code and stderr', async () => {
    healthy();
    tool('ibnetdiscover', 'echo "ibwarn: [4242] mad_rpc_open_port: can\'t open UMAD port ((null):0)" >&2; exit 3');
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/^ibnetdiscover -o 8: exit 3: ibwarn: \[4242\] mad_rpc_open_port: can't open UMAD port/);
  });

  it('a tool that prints only to stderr (exit 0) fails the scan as empty output', async () => {
    healthy();
    tool('ibnetdiscover', 'echo "ibwarn: something odd" >&2; exit 0');
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/ibnetdiscover.*empty output/);
  });

  it('a tool that floods stdout is killed at the output cap', async () => {
    healthy();
    tool('ibnetdiscover', 'exec yes "Switch 36 \"S-fc6a1c0300001010\" # flood"');
    const before = process.memoryUsage().rss;
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toBe('ibnetdiscover: output exceeded the cap and the process was killed');
    // The cap bounds what is buffered: nowhere near unbounded growth.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * CAP_BYTES);
  });

  it('a tool missing from PATH fails the scan with "not found on PATH"', async () => {
    healthy();
    tool('ibnetdiscover', null);
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toBe('ibnetdiscover: not found on PATH');
  });

  it('a hanging iblinkinfo leaves the topology scan partial (ports from ibnetdiscover)', async () => {
    healthy();
    tool('iblinkinfo', 'exec sleep 100');
    const row = await ctx.scans.run('topology', 'api');
    expect(row.status).toBe('partial');
    expect(row.error).toMatch(/port states unknown: iblinkinfo -o 8: killed after timeout/);
  });

  it('ibqueryerrors failing (exit 3, stderr only) or flooding fails the PM sweep; the next one works', async () => {
    healthy();
    tool('ibqueryerrors', 'echo "ibwarn: [1] query failed: SA query failed" >&2; exit 3');
    const a = await ctx.scans.run('pm', 'api');
    expect(a.status).toBe('failed');
    expect(a.error).toMatch(
      new RegExp(
        /^ibqueryerrors --data --threshold-file \/dev\/null --load-cache \S+: exit 3: ibwarn: \[1\] query failed/
          .source + /|^ibqueryerrors --counters --load-cache \S+: exit 3/.source,
      ),
    );
    tool('ibqueryerrors', 'exec yes "   GUID 0xfc6a1c0300001010 port 3: [PortXmitDiscards == 55]"');
    const b = await ctx.scans.run('pm', 'api');
    expect(b.status).toBe('failed');
    expect(b.error).toBe('ibqueryerrors: output exceeded the cap and the process was killed');
    healthy();
    expect((await ctx.scans.run('pm', 'api')).status).not.toBe('failed');
  });

  it('an ibqueryerrors that cannot load the fabric snapshot runs again with its own discovery', async () => {
    healthy();
    const ok = await ctx.scans.run('pm', 'api');
    expect(ok.warnings.join('\n')).not.toMatch(/snapshot/);
    tool(
      'ibqueryerrors',
      `case "$*" in *--load-cache*) echo "loading cached fabric failed" >&2; exit 255;; esac\n${HEALTHY.ibqueryerrors}`,
    );
    const r = await ctx.scans.run('pm', 'api');
    expect(r.status).toBe(ok.status);
    const why = 'exit 255: loading cached fabric failed; ran it again without the fabric snapshot';
    expect(r.warnings.filter((w) => w.includes('snapshot')).sort()).toEqual([
      expect.stringMatching(new RegExp(`^ibqueryerrors --counters --load-cache \\S+: ${why}$`)),
      expect.stringMatching(new RegExp(`^ibqueryerrors --data --threshold-file /dev/null --load-cache \\S+: ${why}$`)),
    ]);
    expect({ ...r.summary, intervalS: 0 }).toEqual({ ...ok.summary, intervalS: 0 });
    // Nothing is left behind in the temp dir, after either way.
    healthy();
  });

  it('a tool that crashes (SIGSEGV) is run once more and the sweep succeeds, with a note', async () => {
    healthy();
    const marker = join(bin, 'crashed-once');
    rmSync(marker, { force: true });
    // First run of the --counters sweep crashes the way ibqueryerrors does under umad2sim.
    tool(
      'ibqueryerrors',
      `case "$*" in *--counters*) if [ ! -e '${marker}' ]; then : > '${marker}'; kill -SEGV $$; fi; cat ` +
        `'${lab('lab-ibqueryerrors-counters.txt')}';; *) cat '${lab('lab-ibqueryerrors-nothr.txt')}'; exit 1;; esac`,
    );
    const r = await ctx.scans.run('pm', 'api');
    expect(existsSync(marker)).toBe(true);
    expect(r.status).toBe('ok');
    expect(r.warnings).toContainEqual(
      expect.stringMatching(/^ibqueryerrors --counters --load-cache \S+ died of SIGSEGV; ran it again$/),
    );
    healthy();
  });

  it('a crash after part of the output: the retry is parsed alone, as a healthy sweep is', async () => {
    healthy();
    const ok = await ctx.scans.run('pm', 'api');
    const marker = join(bin, 'crashed-midway');
    rmSync(marker, { force: true });
    // The --counters output is parsed as it arrives: the crashed run's first 3,000 bytes (cut
    // mid-line) reached that parse too, and must not end up in the sweep.
    const counters = lab('lab-ibqueryerrors-counters.txt');
    tool(
      'ibqueryerrors',
      `case "$*" in *--counters*) if [ ! -e '${marker}' ]; then : > '${marker}'; head -c 3000 '${counters}'; ` +
        `kill -SEGV $$; fi; cat '${counters}';; *) cat '${lab('lab-ibqueryerrors-nothr.txt')}'; exit 1;; esac`,
    );
    const r = await ctx.scans.run('pm', 'api');
    expect(existsSync(marker)).toBe(true);
    expect(r.status).toBe(ok.status);
    expect(r.warnings).toEqual([
      ...ok.warnings,
      expect.stringMatching(/^ibqueryerrors --counters --load-cache \S+ died of SIGSEGV; ran it again$/),
    ]);
    // The same sweep but for the time since the last one.
    expect({ ...r.summary, intervalS: 0 }).toEqual({ ...ok.summary, intervalS: 0 });
    healthy();
  });

  it('SM tools missing: the SM scan fails and raises no false "no master" finding', async () => {
    healthy();
    tool('saquery', null);
    tool('sminfo', null);
    const before = ctx.db
      .prepare("SELECT COUNT(*) FROM findings WHERE kind LIKE 'sm-%' AND state != 'resolved'")
      .pluck()
      .get();
    const row = await ctx.scans.run('sm', 'api');
    expect(row.status).toBe('failed');
    expect(row.error).toBe('saquery: not found on PATH');
    expect(
      ctx.db.prepare("SELECT COUNT(*) FROM findings WHERE kind LIKE 'sm-%' AND state != 'resolved'").pluck().get(),
    ).toBe(before);
  });

  it('SA not answering: the SM scan asks the master the port knows of, and finds one never seen before', async () => {
    healthy();
    // A new master whose first sweep has not finished: `saquery SMIR` times out, and only
    // `sminfo` without a LID (PortInfo's MasterSMLID) reaches it.
    tool('saquery', `echo 'ibwarn: [1] sa_query: Query SA failed: Connection timed out' >&2; exit 255`);
    tool(
      'sminfo',
      `case "$#" in 0) echo ` +
        `'sminfo: sm lid 9 sm guid 0xb83fd20300000301, activity count 42 priority 15 state 3 SMINFO_MASTER';; ` +
        `*) echo 'ibwarn: mad_rpc: _do_madrpc failed; dport (Lid '"$1"')' >&2; exit 255;; esac`,
    );
    const row = await ctx.scans.run('sm', 'api');
    expect(row.status).toBe('partial');
    expect(row.summary).toMatchObject({ sms: 1, master: '0xb83fd20300000301' });
    healthy();
  });

  it('the collector keeps serving through all of it: health, scan list, and scan now over HTTP', async () => {
    healthy();
    tool('ibnetdiscover', 'exit 7');
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    const now = await app.inject({
      method: 'POST',
      url: '/api/scans',
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { kind: 'topology' },
    });
    expect(now.statusCode).toBe(200);
    expect(now.json()).toMatchObject({ status: 'failed' });
    expect((now.json() as { error: string }).error).toMatch(/^ibnetdiscover -o 8: exit 7$/);
    const failed = (await app.inject({ url: '/api/scans?status=failed' })).json() as { error: string }[];
    for (const m of [
      'killed after timeout',
      'exit 3',
      'empty output',
      'output exceeded the cap',
      'not found on PATH',
    ]) {
      expect(
        failed.some((f) => f.error.includes(m)),
        m,
      ).toBe(true);
    }
    healthy();
    expect((await ctx.scans.run('topology', 'api')).status).toBe('ok');
    expect(ctx.db.prepare("SELECT COUNT(*) FROM scans WHERE status = 'running'").pluck().get()).toBe(0);
  });
});
