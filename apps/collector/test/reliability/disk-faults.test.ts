// A database that refuses writes: the file turned read-only under a running deployment, and a
// full disk. Scans and imports fail with a clear reason, earlier data stays, the process stays up.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import {
  cleanupTemp,
  fingerprint,
  modesApply,
  PARSER_FIXTURES,
  RUN_A,
  RUN_B,
  tempDir,
  testConfig,
  TOKEN,
} from './support.ts';

const COLLECTOR = resolve(import.meta.dirname, '../..');
const GOOD_NCCL = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
const children: number[] = [];
// Decided once, when the file is collected, so that a case that cannot run says why in the report.
const modes = modesApply(tempDir('modes'));
if (modes.reason) console.warn(`disk-faults: read-only database file skipped: ${modes.reason}`);

afterAll(() => {
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  cleanupTemp();
});

describe('database refuses writes', () => {
  it('disk full (SQLITE_FULL): the import fails saying so, earlier data intact, the next import works', async () => {
    const ctx = createContext(testConfig(tempDir('full')));
    expect((await ctx.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
    const before = fingerprint(ctx.db);
    // No free pages left and no room to grow: the next page the import needs is "disk full".
    ctx.db.exec('VACUUM');
    ctx.db.pragma(`max_page_count = ${ctx.db.pragma('page_count', { simple: true }) as number}`);

    const row = await ctx.scans.importIbdiagnet(RUN_B, 'cli');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/database or disk is full/);
    expect(fingerprint(ctx.db)).toBe(before);
    const nccl = await ctx.scans.importNccl(GOOD_NCCL, {}, 'job.txt', 'api');
    expect(nccl.runId).toBeNull();
    expect(nccl.scan.error).toMatch(/database or disk is full/);
    expect(fingerprint(ctx.db)).toBe(before);

    // Room again (disk cleaned up): the very same process imports normally.
    ctx.db.pragma('max_page_count = 1073741823');
    expect((await ctx.scans.importIbdiagnet(RUN_B, 'cli')).status).not.toBe('failed');
    expect(ctx.db.pragma('integrity_check', { simple: true })).toBe('ok');
    ctx.db.close();
  });

  it.skipIf(modes.reason !== undefined)(
    'read-only database file: the server starts, serves stored data, and every write fails with the reason' +
      (modes.reason ? ` (skipped: ${modes.reason})` : ''),
    async () => {
      const dir = tempDir('ro');
      const config = testConfig(dir);
      const ctx = createContext(config);
      expect((await ctx.scans.importIbdiagnet(RUN_A, 'cli')).status).not.toBe('failed');
      ctx.db.close();
      chmodSync(config.dbFile, 0o444);

      // A process to which the file's mode applies (root without CAP_DAC_OVERRIDE, see modesApply):
      // SQLite's open for writing gets EACCES and it falls back to read-only, as for a non-root user.
      const [cmd, ...args] = [...(modes.argv ?? []), process.execPath, '--import', 'tsx', 'src/server.ts'];
      const child = spawn(cmd!, args, {
        cwd: COLLECTOR,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          HOME: dir,
          IBWATCH_DB: config.dbFile,
          IBWATCH_SOURCE: 'import-only',
          IBWATCH_PORT: '0',
          IBWATCH_TOKEN: TOKEN,
          IBWATCH_LAB_DIR: join(dir, 'nolab'),
          IBWATCH_WEB_DIST: join(dir, 'noweb'),
        },
      });
      children.push(child.pid!);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const log: string[] = [];
      const base = await new Promise<string>((ok, fail) => {
        // tsx compiling the server took 26 s in a clone while the machine ran at load 20.
        const t = setTimeout(() => fail(new Error(`server did not listen: ${stderr}`)), 50_000);
        child.on('exit', (code) => fail(new Error(`server exited ${code}: ${stderr}\n${log.join('\n')}`)));
        createInterface({ input: child.stdout }).on('line', (l) => {
          log.push(l);
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(l);
          if (m) clearTimeout(t), ok(m[1]!);
        });
      });
      const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      const topology = (await (await fetch(`${base}/api/topology`)).json()) as { nodes: { guid: unknown[] } };
      expect(topology.nodes.guid.length).toBe(272);

      const scan = await fetch(`${base}/api/scans`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ kind: 'ibdiagnet' }),
      });
      expect(scan.status).toBe(200);
      expect((await scan.json()) as { status: string; error: string }).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/readonly database/),
      });
      const up = await fetch(`${base}/api/nccl-runs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ text: GOOD_NCCL }),
      });
      // Not the upload's fault: 503 (it was 422, "your data is bad", before issue 14).
      expect(up.status).toBe(503);
      expect(((await up.json()) as { message: string }).message).toMatch(
        /could not record the scan: attempt to write a readonly database/,
      );

      // Still up a while later (no crash, so no crash loop), and the start-up said why.
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.exitCode).toBeNull();
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect(log.some((l) => /refuses writes/.test(l))).toBe(true);
      child.removeAllListeners('exit');
      process.kill(child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
    90_000,
  );
});
