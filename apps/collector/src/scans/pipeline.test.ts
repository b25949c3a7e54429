import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScansRepo } from '../db/scans-repo.ts';
import { processOwner } from '../db/scan-owner.ts';
import { createContext } from '../context.ts';
import { ScanError } from '../sources/types.ts';
import { runPipeline } from './pipeline.ts';
import { SAMPLE_A, testContext } from '../test-support.ts';

const ctx = testContext();
const count = (table: string) => ctx.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
const snapshot = () => ({
  nodes: count('nodes'),
  ports: count('ports'),
  links: count('links'),
  findings: count('findings'),
  sm: count('sm_observations'),
  nodeRows: ctx.db.prepare('SELECT guid, description, last_seen FROM nodes ORDER BY guid').all(),
});

beforeAll(async () => {
  const first = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
  expect(first.status).not.toBe('failed');
});
afterAll(() => ctx.cleanup());

describe('runPipeline()', () => {
  it('marks the scan failed with the ScanError message and stores only its raw output', async () => {
    const before = snapshot();
    const row = await runPipeline(
      ctx.db,
      'pm',
      'api',
      async () => {
        throw new ScanError('perfquery: not found on PATH', [
          { name: 'perfquery.stderr.txt', text: 'sh: perfquery: not found' },
        ]);
      },
      () => {
        throw new Error('store must not run after a failed collect');
      },
    );
    expect(row).toMatchObject({
      kind: 'pm',
      trigger: 'api',
      status: 'failed',
      error: 'perfquery: not found on PATH',
      summary: {},
    });
    expect(row.finishedAt).not.toBeNull();
    expect(snapshot()).toEqual(before);
    const raw = createScansRepo(ctx.db).rawOutputs(row.id);
    expect(raw.map((r) => [r.name, gunzipSync(r.gz).toString('utf8')])).toEqual([
      ['perfquery.stderr.txt', 'sh: perfquery: not found'],
    ]);
  });

  it('marks the scan failed when collect throws something other than a ScanError', async () => {
    const row = await runPipeline(
      ctx.db,
      'sm',
      'schedule',
      async () => {
        throw new TypeError('cannot read properties of undefined');
      },
      () => ({}),
    );
    expect(row).toMatchObject({ status: 'failed', error: 'cannot read properties of undefined' });
  });

  it('rolls back everything a failing store wrote and keeps the earlier data intact', async () => {
    const before = snapshot();
    const row = await runPipeline(
      ctx.db,
      'topology',
      'api',
      async () => ({
        data: null,
        raw: [{ name: 'ibnetdiscover.txt', text: 'vendid=0x2c9' }],
        toolVersions: {},
        warnings: ['one warning'],
      }),
      () => {
        // Real writes first, through the same statements a store would use, then a failure.
        ctx.db.prepare("UPDATE nodes SET description = 'overwritten', last_seen = 1").run();
        ctx.db.prepare('DELETE FROM links').run();
        throw new Error('UNIQUE constraint failed: ports.node_guid');
      },
    );
    expect(row.status).toBe('failed');
    expect(row.error).toBe('storing failed: UNIQUE constraint failed: ports.node_guid');
    expect(row.warnings).toEqual(['one warning']);
    expect(snapshot()).toEqual(before);
    expect(
      createScansRepo(ctx.db)
        .rawOutputs(row.id)
        .map((r) => r.name),
    ).toEqual(['ibnetdiscover.txt']);
  });

  it('stores and finishes in one go: status ok, summary, tool versions and raw output', async () => {
    const row = await runPipeline(
      ctx.db,
      'sm',
      'cli',
      async () => ({
        data: 1,
        raw: [{ name: 'sminfo.txt', text: 'sminfo: sm lid 1' }],
        toolVersions: { sminfo: '2.1' },
        warnings: [],
      }),
      (_id, _at, c) => ({ sms: c.data }),
      () => 1_700_000_000_000,
    );
    expect(row).toMatchObject({
      status: 'ok',
      error: null,
      summary: { sms: 1 },
      toolVersions: { sminfo: '2.1' },
      startedAt: 1_700_000_000_000,
      durationMs: 0,
    });
  });

  it('marks a scan partial, with the first warning as its error, when collect says some data is missing', async () => {
    const row = await runPipeline(
      ctx.db,
      'pm',
      'cli',
      async () => ({ data: 1, raw: [], toolVersions: {}, warnings: ['perfquery lid 7: timeout'], partial: true }),
      () => ({}),
    );
    expect(row).toMatchObject({
      status: 'partial',
      error: 'perfquery lid 7: timeout',
      warnings: ['perfquery lid 7: timeout'],
    });
  });
});

describe('createContext()', () => {
  it("marks failed at start-up the 'running' scans of processes that are gone, and only those", async () => {
    const repo = createScansRepo(ctx.db);
    const owner = ctx.db.prepare('UPDATE scans SET owner = ? WHERE id = ?');
    const scan = (o: string | null) => {
      const id = repo.start('pm', 'schedule', Date.now());
      if (o !== 'mine') owner.run(o, id);
      return id;
    };
    // Gone: this PID in an earlier life (a restart in a container), and a scan from before owners.
    const crashed = scan(`${hostname()}:${process.pid}:1`);
    const legacy = scan(null);
    // Alive: this process, another process writing the same file now, and one of another host.
    const child = spawn('sleep', ['30']);
    try {
      const mine = scan('mine');
      const other = scan(processOwner(child.pid!)!);
      const remote = scan('some-other-host:4242:777');
      createContext(ctx.config, { db: ctx.db });
      for (const id of [crashed, legacy]) {
        expect(repo.get(id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted/) });
        expect(repo.get(id)!.durationMs).toBeGreaterThanOrEqual(0);
      }
      for (const id of [mine, other, remote]) expect(repo.get(id)!.status).toBe('running');
      // The other process exits without finishing its scan: the next start marks it.
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      createContext(ctx.config, { db: ctx.db });
      expect(repo.get(other)!.status).toBe('failed');
      expect(repo.get(mine)!.status).toBe('running');
      ctx.db.prepare("UPDATE scans SET status = 'failed' WHERE status = 'running'").run();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
