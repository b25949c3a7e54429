import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScanRow } from '@ibwatch/fabric';
import { REPO_ROOT, runCli, tempDir } from './test-support.ts';

const tmp = tempDir('ibwatch-cli-import-');
const db = join(tmp.dir, 'cli.db');
const FIX = join(REPO_ROOT, 'packages/parsers/fixtures');
afterAll(tmp.cleanup);

// Each run starts node + tsx (~1 s alone, several on a busy 2-core machine).
describe('ibwatch import diags / opensm-log', { timeout: 30_000 }, () => {
  it('import diags of a pasted ibstatus: the format told from the content, each port printed', async () => {
    const r = await runCli(['import', 'diags', join(FIX, 'diags/sample-ibstatus-roce-ib.txt'), '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^scan #\d+ import-diags: ok in \d+ ms/);
    const lines = r.stdout.trim().split('\n');
    // The two HDR (200 Gb/s) IB ports are below the default IBWATCH_EXPECTED_RATE, 4X NDR; the
    // RoCE ports, one of them down, are not judged.
    expect(lines[0]).toBe(
      'import-diags ibstatus sample-ibstatus-roce-ib.txt: ' +
        'ports 4, infiniband 2, ethernet 2, findings 2, findingsOpened 2',
    );
    expect(lines).toContain('  mlx5_2/1 Down/Disabled 100G Ethernet');
  });

  it('import diags --json prints the scan row; a cut paste exits 1 naming file and line', async () => {
    const j = await runCli(['import', 'diags', join(FIX, 'diags/sample-ibstat-hdr.txt'), '--json', '--db', db]);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout) as ScanRow).toMatchObject({ kind: 'import-diags', summary: { format: 'ibstat' } });
    const cut = join(tmp.dir, 'node7.txt');
    writeFileSync(cut, "CA 'mlx5_0'\n\tFirmware version: 28.39.1002\n\tPort 1:\n");
    const r = await runCli(['import', 'diags', cut, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/import-diags: failed .*node7\.txt:3/);
  });

  it('import diags --format must name a diags tool', async () => {
    const r = await runCli(['import', 'diags', join(tmp.dir, 'node7.txt'), '--format', 'sminfo', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--format: iblinkinfo, ibqueryerrors, perfquery, ibstat or ibstatus');
  });

  it('import opensm-log of a log cut by Ctrl-C: partial, the warning names file and line', async () => {
    const r = await runCli(['import', 'opensm-log', join(FIX, 'opensm/mlnx-5.7-port-unknown-ctrl-c.log'), '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('import-opensm-log: partial');
    expect(r.stderr).toContain(
      'warning: mlnx-5.7-port-unknown-ctrl-c.log:6: log cut by Ctrl-C (the last line ends in ^C)',
    );
    expect(r.stdout).toContain('events 5, stored 5, findingsOpened 1');
  });
});
