// server.ts wiring, in a real server process: a bad configuration stops it with exit 2 and every
// problem at once; a good one starts the scheduler (its tasks really fire) and the nccl drop-dir
// watcher, and SIGTERM stops all of it with exit 0. The ibdiagnet it schedules is a stand-in
// script copying the real ndr-fat-tree-b run (NVIDIA's ibdiagnet is not installable here; see
// sources/ibdiagnet.test.ts).
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import type { FabricSummary, FindingRow, ScanRow, SmLogReply } from '@ibwatch/fabric';
import { listeningUrl, ncclFixture, REPO_ROOT, SAMPLE_B, spawnServer, tempDir, TOKEN } from './test-support.ts';

const tmp = tempDir('ibwatch-server-');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  tmp.cleanup();
});

function serve(env: Record<string, string>, argv?: string[]) {
  const s = spawnServer(
    {
      IBWATCH_DB: join(tmp.dir, 'ibwatch.db'),
      IBWATCH_TOKEN: TOKEN,
      IBWATCH_WEB_DIST: join(tmp.dir, 'no-web'),
      IBWATCH_LAB_DIR: join(tmp.dir, 'no-lab'),
      IBWATCH_IBDIAGNET_OUT: join(tmp.dir, 'ibdiagnet-out'),
      ...env,
    },
    argv,
  );
  started.push(s.child);
  return s;
}

describe('server.ts', () => {
  it('exits 2 listing every configuration problem at once', async () => {
    const s = serve({ IBWATCH_SOURCE: 'nfs', IBWATCH_CRON_PM: 'every minute' });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toMatch(/^ibwatch: invalid configuration:/);
    expect(s.stderr()).toContain('IBWATCH_SOURCE="nfs"');
    expect(s.stderr()).toContain('IBWATCH_CRON_PM="every minute": not a valid cron expression');
  }, 30_000);

  it('refuses to start without IBWATCH_SOURCE (exit 2), listing every source to choose from', async () => {
    const s = serve({ IBWATCH_SOURCE: '' });
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toContain('IBWATCH_SOURCE is not set: ibwatch scans no fabric it was not told to.');
    for (const k of ['diags', 'ibdiagnet', 'import-only', 'lab'])
      expect(s.stderr()).toMatch(new RegExp(`IBWATCH_SOURCE=${k} +\\w`));
  }, 30_000);

  it('serve --port/--host/--db override IBWATCH_PORT/HOST/DB; a bad --port is refused like the variable', async () => {
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const db = join(tmp.dir, 'flags.db');
    const env = { IBWATCH_SOURCE: 'import-only', IBWATCH_PORT: '1', IBWATCH_HOST: '::1' };
    const s = serve(env, ['src/cli.ts', 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db]);
    expect(await listeningUrl(s)).toBe(`http://127.0.0.1:${port}`);
    expect(existsSync(db)).toBe(true);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const bad = serve(env, ['src/cli.ts', 'serve', '--port', 'eighty']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toContain('IBWATCH_PORT="eighty": expected an integer from 0 to 65535');
  }, 40_000);

  it('runs the scheduled kinds and the drop-dir watcher, and stops on SIGTERM with exit 0', async () => {
    const tool = join(tmp.dir, 'bin', 'ibdiagnet');
    mkdirSync(join(tmp.dir, 'bin'));
    writeFileSync(
      tool,
      `#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift;; esac; shift; done\ncp -R ` +
        `'${SAMPLE_B}'/. "$out"/\n`,
    );
    chmodSync(tool, 0o755);
    const drop = join(tmp.dir, 'drop');
    mkdirSync(drop);
    writeFileSync(join(drop, 'job-42.out'), ncclFixture('all_reduce_perf.gdr-enabled.multinode.good.txt'));
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(join(drop, 'job-42.out'), old, old);

    const s = serve({
      IBWATCH_SOURCE: 'ibdiagnet',
      IBWATCH_IBDIAGNET: tool,
      IBWATCH_CRON_IBDIAGNET: '* * * * * *',
      IBWATCH_CRON_SM: '0 0 0 1 1 *', // once a year: no SM tools here
      IBWATCH_JITTER_MS: '0',
      IBWATCH_NCCL_DROP_DIR: drop,
    });
    const base = await listeningUrl(s);
    const startLog = s.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; tasks?: string[] })
      .find((l) => l.msg === 'scheduler started');
    expect(startLog?.tasks).toEqual(['ibdiagnet@* * * * * *', 'sm@0 0 0 1 1 *']);
    // What it schedules is in its summary and recorded in its database for `ibwatch status`.
    const summary = (await (await fetch(`${base}/api/summary`)).json()) as FabricSummary;
    expect(summary.collector).toMatchObject({
      source: 'ibdiagnet',
      from: 'running',
      text: expect.stringMatching(/^ibdiagnet every 1 s, sm every 36[56] d$/) as unknown,
    });
    const raw = new Database(join(tmp.dir, 'ibwatch.db'), { readonly: true });
    const run = JSON.parse(
      raw.prepare("SELECT value FROM settings WHERE key = 'collector.run'").pluck().get() as string,
    );
    raw.close();
    expect(run).toMatchObject({ source: 'ibdiagnet', url: base, pid: s.child.pid, cron: { ibdiagnet: '* * * * * *' } });

    // The cron task fires within ~1 s and stores the run; the drop-dir file is imported at start.
    const scans = await vi.waitFor(
      async () => {
        const list = (await (await fetch(`${base}/api/scans?kind=ibdiagnet`)).json()) as ScanRow[];
        if (!list.some((r) => r.status === 'ok')) throw new Error('no scheduled ibdiagnet scan yet');
        return list;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(scans.find((r) => r.status === 'ok')).toMatchObject({ kind: 'ibdiagnet', trigger: 'schedule' });
    expect(readdirSync(join(drop, 'imported'))).toEqual(['job-42.out']);
    const nccl = (await (await fetch(`${base}/api/scans?kind=import-nccl`)).json()) as ScanRow[];
    expect(nccl).toEqual([expect.objectContaining({ status: 'ok', trigger: 'schedule' })]);

    const t0 = Date.now();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    // Nothing on stderr at start or stop: no deprecation or other process warning.
    expect(s.stderr()).toBe('');
  }, 40_000);

  it('follows IBWATCH_OPENSM_LOG: events as lines are appended, an exit becomes a finding', async () => {
    const log = join(tmp.dir, 'opensm.log');
    const lines = readFileSync(join(REPO_ROOT, 'packages/parsers/fixtures/opensm/lab-standby-failover.log'), 'utf8')
      .split('\n')
      .slice(0, -1);
    writeFileSync(log, `${lines.slice(0, 29).join('\n')}\n`);
    const s = serve({ IBWATCH_SOURCE: 'import-only', IBWATCH_OPENSM_LOG: log, IBWATCH_OPENSM_LOG_POLL_MS: '100' });
    const base = await listeningUrl(s);
    // import-only schedules nothing, and says so in the log and the summary.
    const summary = (await (await fetch(`${base}/api/summary`)).json()) as FabricSummary;
    expect(summary.collector).toMatchObject({ source: 'import-only', schedules: [] });
    expect(s.lines.some((l) => l.includes('scheduled scans: none (import-only)'))).toBe(true);
    const read = async () => (await (await fetch(`${base}/api/sms/log`)).json()) as SmLogReply;
    const first = await vi.waitFor(
      async () => {
        const r = await read();
        if (!r.events.some((e) => e.state === 'MASTER')) throw new Error('no MASTER event yet');
        return r;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(first.follow).toMatchObject({ path: log, error: null });
    appendFileSync(log, `${lines.slice(29).join('\n')}\n`);
    const exits = await vi.waitFor(
      async () => {
        const f = (await (await fetch(`${base}/api/findings?kind=opensm-log-exit`)).json()) as FindingRow[];
        if (f.length === 0) throw new Error('no opensm-log-exit finding yet');
        return f;
      },
      { timeout: 10_000, interval: 100 },
    );
    // The SM was STANDBY again when it exited (the priority-15 SM took mastership back).
    expect(exits.map((f) => [f.severity, f.title])).toEqual([
      ['minor', 'OpenSM exited (was STANDBY) (OpenSM log, Nov 29 17:47:15.616231)'],
    ]);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 30_000);
});
