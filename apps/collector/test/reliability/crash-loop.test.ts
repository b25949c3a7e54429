// kill -9 of a collector in the middle of ingest, 20 times in a row, on one database. Then:
// the database is intact, no half-written scan is visible, ingest resumes where it stopped, the
// real server starts cleanly on it, and no counter delta was lost or counted twice.
import { seededRandom } from '@ibwatch/fabric';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { countersAt } from './ingest-driver.ts';
import { cleanupTemp, tempDir } from './support.ts';
import { lastValues } from '../../src/db/counters-repo.ts';

const COLLECTOR = resolve(import.meta.dirname, '../..');
const DRIVER = join(import.meta.dirname, 'ingest-driver.ts');
const KILLS = 20;
// 256 GPUs: a 2-tier tree of 1,092 cabled ports, about the sweep size the kill timing was tuned on.
const GPUS = '256';
const live = new Set<ChildProcess>();

afterAll(() => {
  for (const c of live) if (c.exitCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
  cleanupTemp();
});

interface Proc {
  child: ChildProcess;
  /** Resolves with the first stdout line matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
  lines: string[];
  exited: Promise<void>;
}

function start(script: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: COLLECTOR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const lines: string[] = [];
  const waiters: { re: RegExp; ok: (l: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const w of waiters.splice(0)) w.re.test(l) ? w.ok(l) : waiters.push(w);
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.on('exit', () => (live.delete(child), r())));
  return {
    child,
    lines,
    exited,
    waitFor: (re, timeoutMs = 30_000) =>
      new Promise<string>((ok, fail) => {
        const hit = lines.find((l) => re.test(l));
        if (hit) return ok(hit);
        const t = setTimeout(
          () => fail(new Error(`no ${re} from ${script} in ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        waiters.push({ re, ok: (l) => (clearTimeout(t), ok(l)) });
        void exited.then(() =>
          setTimeout(() => fail(new Error(`${script} exited before ${re}; stderr: ${stderr}`)), 200),
        );
      }),
  };
}

async function kill9(p: Proc): Promise<void> {
  process.kill(p.child.pid!, 'SIGKILL');
  await p.exited;
}

/** Ids of scans a kill left 'running' (a kill during start-up may leave the previous ones still so). */
const runningIds = (file: string): number[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT id FROM scans WHERE status = 'running'").pluck().all() as number[];
  } finally {
    db.close();
  }
};

describe('kill -9 during ingest', () => {
  it(`survives ${KILLS} kills: intact database, no half scans, no lost or double-counted delta`, async () => {
    const dir = tempDir('crash');
    const file = join(dir, 'ibwatch.db');
    const random = seededRandom(20_261_129);
    const interruptedIds = new Set<number>();
    let sweepsSeen = 0;

    // First run: topology plus the k = 0 baseline, then the kills begin.
    let p = start(DRIVER, [file, GPUS]);
    await p.waitFor(/^sweep 0 /);
    for (let i = 0; i < KILLS; i++) {
      // Most kills land while sweeps run; every fifth one during start-up (open, migrate, recover).
      if (i > 0 && i % 5 === 0) await new Promise((r) => setTimeout(r, random() * 400));
      else {
        await p.waitFor(/^ready /);
        await new Promise((r) => setTimeout(r, 50 + random() * 700));
      }
      await kill9(p);
      sweepsSeen += p.lines.filter((l) => l.startsWith('sweep ')).length;
      for (const id of runningIds(file)) interruptedIds.add(id);
      p = start(DRIVER, [file, GPUS]);
    }
    // The restarted ingest resumes the series: three more sweeps commit after the last kill.
    const resumed = await p.waitFor(/^ready /);
    const firstK = Number(/k=(\d+)/.exec(resumed)![1]);
    await p.waitFor(new RegExp(`^sweep ${firstK + 2} `));
    await kill9(p);
    for (const id of runningIds(file)) interruptedIds.add(id);
    const interrupted = interruptedIds.size;

    // The real server starts on this database: it marks interrupted scans failed and serves.
    const server = start(join(COLLECTOR, 'src/server.ts'), [], {
      IBWATCH_DB: file,
      IBWATCH_SOURCE: 'import-only',
      IBWATCH_PORT: '0',
      IBWATCH_LOG_LEVEL: 'info',
      IBWATCH_LAB_DIR: join(dir, 'nolab'),
    });
    const listening = await server.waitFor(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
    const base = /http:\/\/127\.0\.0\.1:\d+/.exec(listening)![0];
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(await (await fetch(`${base}/api/scans?status=running`)).json()).toEqual([]);
    const failed = (await (await fetch(`${base}/api/scans?status=failed&limit=1000`)).json()) as { error: string }[];
    expect(failed.length).toBe(interrupted);
    for (const f of failed) expect(f.error).toMatch(/^interrupted: the collector stopped during this scan/);
    process.kill(server.child.pid!, 'SIGTERM');
    await server.exited;

    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.prepare("SELECT COUNT(*) FROM scans WHERE status = 'running'").pluck().get()).toBe(0);
      // Kills really landed mid-ingest, and ingest really progressed between them.
      expect(interrupted).toBeGreaterThanOrEqual(KILLS / 2);
      const okPm = db.prepare("SELECT COUNT(*) FROM scans WHERE kind = 'pm' AND status = 'ok'").pluck().get() as number;
      expect(okPm).toBeGreaterThanOrEqual(KILLS / 2);

      // Every stored delta belongs to a scan that committed; every committed sweep after the
      // baseline stored its deltas (whole scans only).
      expect(
        db
          .prepare("SELECT COUNT(*) FROM counter_deltas d JOIN scans s ON s.id = d.scan_id WHERE s.status != 'ok'")
          .pluck()
          .get(),
      ).toBe(0);
      expect(
        db
          .prepare(
            "SELECT COUNT(*) FROM scans s WHERE kind = 'pm' AND status = 'ok' AND id > (SELECT MIN(id) FROM " +
              "scans WHERE kind = 'pm' AND status = 'ok') AND NOT EXISTS (SELECT 1 FROM counter_deltas d WHERE " +
              'd.scan_id = s.id)',
          )
          .pluck()
          .get(),
      ).toBe(0);

      // Per port and counter: sum of deltas == last stored total - 0 (the k = 0 baseline), the
      // total is the closed form at the last k for every port (no port left behind), and the
      // hourly rollups hold the same sums.
      const ports = db.prepare('SELECT id FROM ports WHERE port_num > 0 ORDER BY id').pluck().all() as number[];
      const last = new Map(
        (
          db
            .prepare(
              'SELECT c.port_id, c.vals, l.names FROM counter_last c LEFT JOIN counter_layouts l ON l.id = c.layout_id',
            )
            .all() as { port_id: number; vals: string; names: string | null }[]
        ).map((r) => [r.port_id, lastValues(r.vals, r.names === null ? undefined : (JSON.parse(r.names) as string[]))]),
      );
      const sums = new Map<string, bigint>();
      for (const r of db
        .prepare(
          'SELECT d.port_id AS p, n.name AS c, SUM(d.delta) AS s FROM counter_deltas d JOIN counter_names n ON ' +
            'n.id = d.counter_id GROUP BY 1, 2',
        )
        .safeIntegers()
        .all() as { p: bigint; c: string; s: bigint }[])
        sums.set(`${r.p}/${r.c}`, r.s);
      const rollups = new Map<string, bigint>();
      for (const r of db
        .prepare(
          'SELECT r.port_id AS p, n.name AS c, SUM(r.delta) AS s FROM counter_rollups r JOIN counter_names n ' +
            'ON n.id = r.counter_id GROUP BY 1, 2',
        )
        .safeIntegers()
        .all() as { p: bigint; c: string; s: bigint }[])
        rollups.set(`${r.p}/${r.c}`, r.s);
      const lastK = okPm - 1; // one k per committed sweep, from 0 (see ingest-driver.ts)
      expect(lastK).toBeGreaterThanOrEqual(firstK + 2);
      let checked = 0;
      ports.forEach((id, i) => {
        const vals = last.get(id)!;
        const expected = countersAt(i, lastK);
        for (const c of ['SymbolErrorCounter', 'PortRcvErrors', 'PortXmitWait']) {
          expect(BigInt(vals[c]!), `port ${id} ${c}`).toBe(expected[c]);
          expect(sums.get(`${id}/${c}`) ?? 0n, `port ${id} ${c} deltas`).toBe(expected[c]);
          expect(rollups.get(`${id}/${c}`) ?? 0n, `port ${id} ${c} rollups`).toBe(expected[c]);
          checked++;
        }
      });
      console.log(
        `crash loop: ${KILLS} kills, ${interrupted} scans interrupted mid-ingest, ${okPm} PM sweeps committed ` +
          `(${sweepsSeen} seen before kills), last k=${lastK}, ${ports.length} ports x 3 counters = ${checked} ` +
          `delta sums exact, integrity_check ok`,
      );
    } finally {
      db.close();
    }
  }, 150_000);
});
