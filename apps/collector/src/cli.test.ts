import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow, NcclRunRow, ScanRow, SmReply, WorklistEntry } from '@ibwatch/fabric';
import { NCCL_FIXTURES, runCli, SAMPLE_A, tempDir, type CliResult } from './test-support.ts';

const tmp = tempDir('ibwatch-cli-');
const db = join(tmp.dir, 'cli.db');

const cli = (...args: string[]) => runCli(args);

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
      status: 'ok',
      masterGuid: '0xb0cf0e0300d33fc0',
    });
    expect(JSON.parse(n.stdout) as NcclRunRow[]).toEqual([
      expect.objectContaining({ verdict: 'host-memory-fallback', labels: { cluster: 'cli', nodes: 2 } }),
    ]);
  });

  it('exits 2 with the usage for an unknown command', async () => {
    const r = await cli('frobnicate', '--db', db);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown command frobnicate');
    expect(r.stderr).toContain('usage: ibwatch <command>');
  });
});
