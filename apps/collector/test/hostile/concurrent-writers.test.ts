// Issue 14, defect 1: uploads lost under concurrency. Real processes on one database file: the
// server (taking API uploads and watching a drop directory) and CLI importers started all at
// once, two of them importing a whole ibdiagnet2 run to hold the write lock a while. Every
// nccl-tests output must end up stored exactly once; a busy database may answer 503 (retry),
// never 422 ("your data is bad").
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemp, PARSER_FIXTURES, RUN_B, tempDir, TOKEN } from '../reliability/support.ts';
import { killAll, runCli, startServer, type CliResult } from './procs.ts';

const CLI_IMPORTS = 8;
const API_UPLOADS = 30;
const DROPPED = 8;
const GOOD = readFileSync(join(PARSER_FIXTURES, 'nccl/all_reduce_perf.multinode.good.txt'), 'utf8');
/** Each output different (the drop directory imports a content once). */
const output = (tag: string) => `${GOOD}# job ${tag} (ibwatch concurrency test)\n`;

afterAll(() => {
  killAll();
  cleanupTemp();
});

/** POST an upload, retrying on 503 after its Retry-After, as a job script should. */
async function upload(base: string, name: string, tally: { busy: number; statuses: number[] }): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/api/nccl-runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: output(name), name, labels: { cluster: 'concurrency' } }),
    });
    tally.statuses.push(res.status);
    if (res.status !== 503 || attempt === 20) return res.status;
    tally.busy++;
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
  }
}

describe('concurrent writers on one database', () => {
  it('CLI importers, API uploads and the drop directory at once lose nothing and store nothing twice', async () => {
    const dir = tempDir('concurrent');
    const db = join(dir, 'ibwatch.db');
    const drop = join(dir, 'drop');
    mkdirSync(drop);
    const env = {
      IBWATCH_DB: db,
      IBWATCH_TOKEN: TOKEN,
      IBWATCH_LAB_DIR: join(dir, 'nolab'),
      IBWATCH_WEB_DIST: join(dir, 'noweb'),
      IBWATCH_SOURCE: 'import-only',
    };
    const server = await startServer({ ...env, IBWATCH_NCCL_DROP_DIR: drop });

    const files = Array.from({ length: CLI_IMPORTS }, (_, i) => {
      const f = join(dir, `cli-${i}.out`);
      writeFileSync(f, output(`cli-${i}`));
      return f;
    });
    for (let i = 0; i < DROPPED; i++) {
      const f = join(drop, `drop-${i}.out`);
      writeFileSync(f, output(`drop-${i}`));
      const t = (Date.now() - 10_000) / 1000;
      utimesSync(f, t, t);
    }
    const tally = { busy: 0, statuses: [] as number[] };
    const [cli, holders, api] = await Promise.all([
      Promise.all(files.map((f) => runCli(['import', 'nccl', f, '--label', 'cluster=concurrency'], env))),
      Promise.all([0, 1].map(() => runCli(['import', 'ibdiagnet', RUN_B], env))),
      Promise.all(Array.from({ length: API_UPLOADS }, (_, i) => upload(server.base, `api-${i}.out`, tally))),
    ]);
    // The drop directory's 5 s polling takes the files in meanwhile; wait for all of them.
    const imported = () => readdirSync(join(drop, 'imported'));
    const deadline = Date.now() + 60_000;
    while (imported().length < DROPPED && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await server.stop();

    const check = new Database(db, { readonly: true });
    const one = (sql: string) => check.prepare(sql).pluck().get() as number;
    const runs = one('SELECT COUNT(*) FROM nccl_runs');
    // Each input by its name (the raw output kept with its scan): every one stored, none twice.
    const names = one('SELECT COUNT(DISTINCT o.name) FROM nccl_runs r JOIN raw_outputs o ON o.scan_id = r.scan_id');
    const failed = check
      .prepare("SELECT kind || ': ' || error FROM scans WHERE status = 'failed'")
      .pluck()
      .all() as string[];
    const integrity = check.pragma('integrity_check', { simple: true });
    const running = one("SELECT COUNT(*) FROM scans WHERE status = 'running'");
    check.close();
    const expected = CLI_IMPORTS + API_UPLOADS + DROPPED;
    const cliRetries = cli.reduce((n, r) => n + (r.stderr.match(/database busy/g)?.length ?? 0), 0);
    console.log(
      `concurrent writers: ${CLI_IMPORTS} CLI nccl imports + 2 CLI ibdiagnet imports + ${API_UPLOADS} API uploads` +
        ` + ${DROPPED} drop-dir files in parallel on one database: ${runs} of ${expected} nccl runs stored` +
        ` (${names} distinct inputs); CLI exit codes ${[...cli, ...holders].map((r) => r.code).join(',')}` +
        ` (${cliRetries} busy retries); API statuses ${[...new Set(tally.statuses)].join('/')}` +
        ` (${tally.busy} answers 503, retried); ${imported().length} of ${DROPPED} drop files imported;` +
        ` ${failed.length} failed scans${failed.length ? `: ${failed.join(' | ')}` : ''}`,
    );

    const why = (r: CliResult) => `exit ${r.code}: ${r.stderr.slice(-600)}`;
    for (const r of [...cli, ...holders]) expect(r.code, why(r)).toBe(0);
    expect(
      api.filter((s) => s !== 201),
      `statuses ${tally.statuses.join(',')}`,
    ).toEqual([]);
    expect(tally.statuses).not.toContain(422);
    expect(imported().sort()).toEqual(Array.from({ length: DROPPED }, (_, i) => `drop-${i}.out`).sort());
    expect(runs).toBe(expected);
    expect(names).toBe(expected);
    // A try that met the database busy past its timeout is a failed scan of its own (and was
    // tried again); nothing else may fail.
    expect(failed.filter((f) => !/database is locked/.test(f))).toEqual([]);
    expect(integrity).toBe('ok');
    expect(running).toBe(0);
  }, 180_000);
});
