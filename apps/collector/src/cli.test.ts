import Database from 'better-sqlite3';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow, NcclRunRow, ScanRow, SmRelearnReply, SmReply, WorklistEntry } from '@ibwatch/fabric';
import { NCCL_FIXTURES, runCli, SAMPLE_A, tempDir, type CliResult } from './test-support.ts';
import type { StatusOutput } from './cli-status.ts';

const tmp = tempDir('ibwatch-cli-');
const db = join(tmp.dir, 'cli.db');

/** Runs the CLI as a user would (`pnpm ibwatch ...`); `cliWith` with other IBWATCH_SOURCE settings. */
const cli = (...args: string[]) => runCli(args);
const cliWith = (settings: { IBWATCH_SOURCE?: string }, ...args: string[]) => runCli(args, settings);

let imported: CliResult;
beforeAll(async () => {
  imported = await cli('import', 'ibdiagnet', SAMPLE_A, '--json', '--db', db);
  const nccl = await cli(
    'import',
    'nccl',
    join(NCCL_FIXTURES, 'all_reduce_perf.gdr-disabled.multinode.good.txt'),
    '--label',
    'cluster=cli',
    '--label',
    'nodes=2',
    '--db',
    db,
  );
  expect(nccl.code, nccl.stderr).toBe(0);
}, 60_000);
afterAll(tmp.cleanup);

// Each run starts node + tsx (~1 s alone, several on a busy 2-core machine).
describe('ibwatch CLI', { timeout: 30_000 }, () => {
  it('import ibdiagnet --json prints only the scan as JSON on stdout and exits 0', () => {
    expect(imported.code, imported.stderr).toBe(0);
    const scan = JSON.parse(imported.stdout) as ScanRow;
    expect(scan).toMatchObject({
      kind: 'import-ibdiagnet',
      trigger: 'cli',
      status: 'partial',
      summary: { 'topology.nodes': 272, 'topology.links': 271 },
    });
  });

  it('import nccl of a bad file exits non-zero naming the file and line on stderr', async () => {
    const r = await cli('import', 'nccl', join(NCCL_FIXTURES, 'header-only.bad.txt'), '--db', db);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('header-only.bad.txt:30:');
    const j = await cli('import', 'nccl', join(NCCL_FIXTURES, 'binary-garbage.bad.txt'), '--json', '--db', db);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ runId: null, scan: { status: 'failed' } });
    expect(j.stderr).toContain('binary-garbage.bad.txt:1:');
  });

  it('worklist, findings, sm and nccl --json print parseable JSON from the database', async () => {
    const [w, f, sm, n] = await Promise.all([
      cli('worklist', '--json', '--db', db),
      cli('findings', '--json', '--db', db),
      cli('sm', '--json', '--db', db),
      cli('nccl', '--json', '--db', db),
    ]);
    for (const r of [w, f, sm, n]) expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(w.stdout) as WorklistEntry[])).toBe(true);
    expect((JSON.parse(f.stdout) as FindingRow[]).map((x) => x.kind)).toContain('nccl-host-memory');
    expect((JSON.parse(sm.stdout) as SmReply).summary).toMatchObject({
      status: 'no-standby',
      masterGuid: '0xb0cf0e0300d33fc0',
    });
    expect(JSON.parse(n.stdout) as NcclRunRow[]).toEqual([
      expect.objectContaining({ verdict: 'host-memory-fallback', labels: { cluster: 'cli', nodes: 2 } }),
    ]);
  });

  it(
    'sm lists the SMs with the designated ones, and sm relearn asks the next SM observation to learn ' + 'them',
    async () => {
      const text = await cli('sm', '--db', db);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('designated SMs: 0xb0cf0e0300d33fc0 (learned at ');
      expect(text.stdout).toMatch(/^MASTER +0xb0cf0e0300d33fc0 lid 180 priority 12 .* designated answering$/m);
      const r = await cli('sm', 'relearn', '--json', '--db', db);
      expect(r.code, r.stderr).toBe(0);
      // import-only runs no SM scan: the next import learns.
      expect(JSON.parse(r.stdout) as SmRelearnReply).toMatchObject({
        scan: null,
        designation: { relearnPending: true },
      });
    },
  );

  it('status --json prints the summary with the status word and exits with its Nagios code', async () => {
    const r = await cli('status', '--json', '--db', db);
    const s = JSON.parse(r.stdout) as StatusOutput;
    // An imported fabric and no scheduled scans (import-only): judged on what it shows.
    expect(s.fabricStatus.word).toBe(s.brokenNow.length ? 'DEGRADED' : 'OK');
    expect(r.code).toBe(s.exitCode);
    expect(s.exitCode).toBe(s.brokenNow.length ? 1 : 0);
    expect(s).toMatchObject({ switches: 9, hcas: 256, aggregationNodes: 7, freshness: [] });
    const text = await cli('status', '--db', db);
    expect(text.code).toBe(r.code);
    expect(text.stdout.split('\n')[0]).toMatch(/^(OK|DEGRADED)/);
    expect(text.stdout).toContain('fabric: 9 switches, 256 HCAs');
  });

  it('status exits 3 (STALE) when the scheduled scans never succeeded, naming each kind', async () => {
    const r = await cliWith({ IBWATCH_SOURCE: 'diags' }, 'status', '--json', '--db', db);
    expect(r.code).toBe(3);
    const s = JSON.parse(r.stdout) as StatusOutput;
    expect(s.fabricStatus.word).toBe('STALE');
    expect(s.freshness.map((f) => [f.kind, f.state])).toEqual([
      ['topology', 'stale'],
      ['pm', 'stale'],
      ['sm', 'stale'],
    ]);
    expect(s.brokenNow.filter((b) => b.kind === 'scan').map((b) => b.key)).toEqual(['pm', 'sm', 'topology']);
  });

  it('status exits 2 (CRITICAL) and names the critical problem first when one is current', async () => {
    // The real run has no critical condition: its no-standby finding is made critical, as a split
    // brain or a rogue master would be, in a copy of the database.
    const crit = join(tmp.dir, 'critical.db');
    copyFileSync(db, crit);
    const raw = new Database(crit);
    expect(raw.prepare("UPDATE findings SET severity = 'critical' WHERE kind = 'sm-no-standby'").run().changes).toBe(1);
    raw.close();
    const r = await cli('status', '--db', crit);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout.split('\n')[0]).toMatch(/^CRITICAL - no standby SM/);
    expect(r.stdout).toContain('findings now: 1 critical');
    const j = JSON.parse((await cli('status', '--json', '--db', crit)).stdout) as StatusOutput;
    expect(j).toMatchObject({ exitCode: 2, fabricStatus: { word: 'CRITICAL' } });
    expect(j.brokenNow[0]).toMatchObject({ severity: 'critical' });
  });

  it('findings prints a finding no longer observed as cleared, and --state cleared lists only those', async () => {
    const copy = join(tmp.dir, 'cleared.db');
    copyFileSync(db, copy);
    const raw = new Database(copy);
    const cleared = raw
      .prepare("UPDATE findings SET cleared_at = last_seen + 1 WHERE kind = 'sm-no-standby' RETURNING title")
      .pluck()
      .get() as string;
    raw.close();
    const all = await cli('findings', '--db', copy);
    expect(all.code, all.stderr).toBe(0);
    const line = all.stdout.split('\n').find((l) => l.endsWith(cleared));
    expect(line).toMatch(/^minor +cleared +/);
    expect(all.stdout.split('\n').filter((l) => /^\w+ +open +/.test(l)).length).toBeGreaterThan(0);
    const only = await cli('findings', '--state', 'cleared', '--db', copy);
    expect(only.stdout.trim().split('\n')).toEqual([line]);
  });

  it('status exits 3 without a database, saying where it looked, and creates none', async () => {
    const missing = join(tmp.dir, 'none.db');
    const r = await cli('status', '--db', missing);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no database at ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });

  it('import nccl --at dates the run, prints its warnings, and nccl lists it by that time', async () => {
    const other = join(tmp.dir, 'at.db');
    const file = join(NCCL_FIXTURES, 'all_reduce_perf.multinode.good.txt');
    const r = await cli('import', 'nccl', file, '--at', '2026-11-01T10:00:00Z', '--label', 'nodes=1', '--db', other);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: all_reduce_perf.multinode.good.txt: label nodes=1 contradicts the log: its rank lines name 2 ' +
        'hosts (ztan-mig-235z, ztan-mig-gq73); judged as 2 nodes',
    );
    const list = await cli('nccl', '--db', other);
    expect(list.stdout.trim()).toMatch(
      new RegExp(
        /^#1 2026-11-01 10:00:00Z all_reduce 2 nodes 16 ranks: peak 338\.8 GB\/s at 8 GiB, largest 338\.8 GB\/s /
          .source +
          /at 8 GiB; target 360\.0 GB\/s \(profile 8x H100, 8x400G\); GDR unknown; FAIL \[1 warning\(s\)\]$/.source,
      ),
    );
    const bad = await cli('import', 'nccl', file, '--at', 'last tuesday', '--db', other);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--at "last tuesday": expected a time such as 2025-06-01T12:00:00Z');
    const future = await cli('import', 'nccl', file, '--at', String(Date.now() + 86_400_000), '--db', other);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--at: startedAt \d+ \(.*\) is in the future/);
  });

  it('exits 2 with the usage for an unknown command', async () => {
    const r = await cli('frobnicate', '--db', db);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown command frobnicate');
    expect(r.stderr).toContain('usage: ibwatch <command>');
  });
});
