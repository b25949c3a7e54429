// `ibwatch status` judged by the cadences of the collector that writes the database, and found
// where it is: a database the demo wrote with 15 s sweeps, 150 s after its collector stopped, is
// STALE although production cadences (one PM sweep a minute) would still call it fresh.
import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSummary } from '@ibwatch/fabric';
import { runCli, SAMPLE_A, tempDir, testConfig, TOKEN } from './test-support.ts';
import { findStatus, formatStatus, recordedSource, type StatusOutput } from './cli-status.ts';

const tmp = tempDir('ibwatch-cli-status-');
const base = join(tmp.dir, 'base.db');
const DEMO_CRON = { pm: '*/15 * * * * *', sm: '*/10 * * * * *', topology: '*/20 * * * * *', ibdiagnet: '0 0 * * * *' };

/** A copy of the imported fabric whose pm, sm and topology scans last succeeded `agoMs` ago. */
function agedCopy(name: string, agoMs: number, run?: object): string {
  const file = join(tmp.dir, name);
  copyFileSync(base, file);
  const raw = new Database(file);
  const at = Date.now() - agoMs;
  const ins = raw.prepare(
    'INSERT INTO scans (kind, trigger, status, started_at, finished_at, duration_ms) ' +
      "VALUES (?, 'schedule', 'ok', ?, ?, 100)",
  );
  for (const kind of ['topology', 'pm', 'sm']) ins.run(kind, at - 100, at);
  if (run) raw.prepare("INSERT INTO settings (key, value) VALUES ('collector.run', ?)").run(JSON.stringify(run));
  raw.close();
  return file;
}

const demoRun = (startedAt: number) => ({
  source: 'diags',
  cron: DEMO_CRON,
  jitterMs: 0,
  startedAt,
  url: 'http://127.0.0.1:1',
  pid: 1,
});

beforeAll(async () => {
  const r = await runCli(['import', 'ibdiagnet', SAMPLE_A, '--db', base]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(tmp.cleanup);

describe('ibwatch status', { timeout: 60_000 }, () => {
  it('judges a database by the cadences its collector recorded: demo sweeps 150 s old are STALE (exit 3)', async () => {
    const file = agedCopy('demo.db', 150_000, demoRun(Date.now() - 600_000));
    const r = await runCli(['status', '--json', '--db', file], { IBWATCH_SOURCE: 'diags' });
    expect(r.code, r.stderr).toBe(3);
    const s = JSON.parse(r.stdout) as StatusOutput;
    expect(s.fabricStatus.word).toBe('STALE');
    expect(s.freshness.map((f) => [f.kind, f.state, f.intervalMs])).toEqual([
      ['topology', 'stale', 20_000],
      ['pm', 'stale', 15_000],
      ['sm', 'stale', 10_000],
    ]);
    expect(s.collector).toMatchObject({
      source: 'diags',
      from: 'recorded',
      text: 'topology every 20 s, pm every 15 s, sm every 10 s',
    });
    const text = await runCli(['status', '--db', file], { IBWATCH_SOURCE: 'diags' });
    expect(text.stdout.split('\n')[0]).toMatch(/^STALE - stale data: pm, sm, topology scans/);
    expect(text.stdout).toContain('schedules: topology every 20 s, pm every 15 s, sm every 10 s (as recorded by');
  });

  it('without a record judges by its own settings: the same ages are fresh at production cadences', async () => {
    const file = agedCopy('norecord.db', 150_000);
    const r = await runCli(['status', '--json', '--db', file], { IBWATCH_SOURCE: 'diags' });
    const s = JSON.parse(r.stdout) as StatusOutput;
    expect(s.freshness.map((f) => f.state)).toEqual(['fresh', 'fresh', 'fresh']);
    expect(s.collector.from).toBe('environment');
    expect(r.code).not.toBe(3);
  });

  it('tells the read-only commands the source the collector recorded, and nothing for a database without one', () => {
    expect(recordedSource(agedCopy('lab-run.db', 0, { ...demoRun(Date.now()), source: 'lab' }))).toBe('lab');
    expect(recordedSource(agedCopy('no-run.db', 0))).toBeNull();
    expect(recordedSource(join(tmp.dir, 'missing.db'))).toBeNull();
    writeFileSync(join(tmp.dir, 'garbage.db'), 'not a database');
    expect(recordedSource(join(tmp.dir, 'garbage.db'))).toBeNull();
  });

  it('says an import-only collector schedules nothing', async () => {
    const file = agedCopy('import-only.db', 150_000, { ...demoRun(Date.now()), source: 'import-only' });
    const r = await runCli(['status', '--json', '--db', file]);
    const s = JSON.parse(r.stdout) as StatusOutput;
    expect(s.collector).toMatchObject({ source: 'import-only', schedules: [] });
    expect(s.freshness).toEqual([]);
    const text = await runCli(['status', '--db', file]);
    expect(text.stdout).toContain('schedules: none (import-only): data comes only from imports and uploads');
  });

  describe('--url', () => {
    let server: Server;
    let url: string;
    let asked: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        asked.push(`${req.url} ${req.headers.authorization ?? ''}`);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(sampleSummary('STALE', 0)));
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

    it('asks the running collector (--url or IBWATCH_URL) and exits with its word', async () => {
      asked = [];
      const r = await runCli(['status', '--json', '--url', url], { IBWATCH_TOKEN: TOKEN });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ fabricStatus: { word: 'STALE' }, readFrom: url });
      expect(asked).toEqual([`/api/summary Bearer ${TOKEN}`]);
      const env = await runCli(['status'], { IBWATCH_URL: url });
      expect(env.stdout).toContain(`read from ${url}`);
    });

    it('finds the collector at the configured IBWATCH_HOST:IBWATCH_PORT when it answers', async () => {
      const port = url.split(':').pop()!;
      const r = await runCli(['status', '--json'], { IBWATCH_PORT: port, IBWATCH_DB: '' });
      expect(r.code, r.stderr).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ readFrom: `http://127.0.0.1:${port}` });
    });
  });

  it('with nothing to read, names the address and the databases it looked at and how to point it', async () => {
    // Port 9 (discard): nothing listens there.
    const config = testConfig(join(tmp.dir, 'nowhere'), { IBWATCH_PORT: '9' });
    const demoDb = join(tmp.dir, 'no-demo.db');
    const e = await findStatus(config, {}, () => undefined, { demoDb }).catch((err: unknown) => err as Error);
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(
      new RegExp(
        '^no collector answers at http://127\\.0\\.0\\.1:9 \\(.+\\) ' +
          `and no database at ${config.dbFile} or ${demoDb}; ` +
          'point status at one with --url http://HOST:PORT \\(or IBWATCH_URL\\) or --db FILE \\(or IBWATCH_DB\\)$',
      ),
    );
  });

  it("falls back to the demo's database when the configured one does not exist, and says so", async () => {
    const config = testConfig(join(tmp.dir, 'nowhere'), { IBWATCH_PORT: '9' });
    const demoDb = agedCopy('fallback-demo.db', 150_000, demoRun(Date.now() - 600_000));
    const notices: string[] = [];
    const s = await findStatus(config, {}, (l) => notices.push(l), { demoDb });
    expect(s).toMatchObject({ readFrom: demoDb, exitCode: 3, collector: { from: 'recorded' } });
    expect(notices).toEqual([
      `no collector answers at http://127.0.0.1:9 and there is no database at ${config.dbFile}: reading ${demoDb}`,
    ]);
  });
});

describe('ibwatch status text', () => {
  it("lists ended events apart from repairs, in the overview's words, never as fixed", () => {
    const at = Date.UTC(2026, 11, 1, 12, 0);
    const s: StatusOutput = {
      ...sampleSummary('OK', 0, at),
      recentEvents: [
        {
          kind: 'cable',
          key: 'cable-1',
          title: 'dgx-0007 mlx5_2 <-> leaf-r2-01 port 7',
          reasons: ['link flapped 3 times in 24 h'],
          severity: 'major',
          at: at - 25 * 3_600_000,
          endedAt: at - 3_600_000,
          how: 'window-ended',
          ends: [],
          worklistKey: null,
        },
      ],
      exitCode: 0,
      readFrom: 'test.db',
    };
    const lines = formatStatus(s, at);
    const head = lines.indexOf('recent events (not repairs):');
    expect(head).toBeGreaterThan(-1);
    expect(lines[head + 1]).toContain('MAJOR');
    expect(lines[head + 1]).toContain('link flapped 3 times in 24 h');
    expect(lines[head + 1]).toContain('did not happen again in its window');
    expect(lines).not.toContain('recently fixed:');
  });
});
