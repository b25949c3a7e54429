// Upgrading a database from every earlier schema version. For each version k (every migration
// but the last, so migrations added later are covered without touching this file), a database
// is built at k (migrations 1..k) and filled with what this version's code stores for a real
// fabric (the ndr-fat-tree-a import, two PM sweeps, nccl runs, an acknowledged and a resolved
// finding), cut down to k's tables and columns and written as the code of version k wrote it
// (FORMATS below). It is then opened the way the server opens it (migrated to the latest
// version), and must keep every row, answer the API as the never-upgraded database does (with
// what later migrations reinterpret applied to it: REINTERPRETED), and take the next PM sweep
// to the same deltas.
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FindingDetail, PortCounters } from '@ibwatch/fabric';
import { createContext, type Context } from '../context.ts';
import { registry } from '../metrics/registry.ts';
import { lastValues } from './counters-repo.ts';
import { createFindingsRepo } from './findings-repo.ts';
import { listMigrations, migrate } from './migrate.ts';
import {
  appOf,
  ERROR_PORT,
  pmSweep,
  seedCounters,
  seedFabric,
  testConfig,
  testContext,
  withErrors,
} from '../test-support.ts';

const MIGRATIONS = listMigrations();
const LATEST = MIGRATIONS.at(-1)!.version;
const EARLIER = MIGRATIONS.slice(0, -1).map((m) => m.version);
const ref = testContext();
afterAll(ref.cleanup);

/** Read routes of every view (ids filled in from the reference database). */
const READS = [
  '/api/summary',
  '/api/topology',
  '/api/ports?limit=100',
  `/api/ports/${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`,
  `/api/ports/${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}/counters?range=24h`,
  '/api/findings?limit=10000',
  '/api/worklist',
  '/api/sms',
  '/api/nccl/runs',
  '/api/scans?limit=1000',
  '/metrics',
];

/**
 * How the code of an earlier version wrote what today's code writes differently: `before` is the
 * migration that changed the format; databases older than it get `write` applied after the
 * plain copy of the rows. A migration that changes how existing data is stored adds an entry.
 */
const FORMATS: { before: number; what: string; write: (db: Database.Database, refFile: string) => void }[] = [
  {
    before: 2,
    what: 'version 1 rewrote every counter_last row on every sweep: all rows are as of the last sweep',
    write: (db) =>
      db.exec(
        'UPDATE counter_last SET at = (SELECT MAX(at) FROM counter_last), scan_id = (SELECT MAX(scan_id) FROM ' +
          'counter_last)',
      ),
  },
  {
    before: 3,
    what: 'before counter_layouts, counter_last.vals was a JSON object of decimal strings',
    write: (db, refFile) => {
      const src = new Database(refFile, { readonly: true });
      const rows = src
        .prepare(
          `SELECT c.port_id AS portId, c.vals, l.names FROM counter_last c LEFT JOIN counter_layouts l ON l.id ` +
            `= c.layout_id`,
        )
        .all() as { portId: number; vals: string; names: string | null }[];
      src.close();
      const set = db.prepare('UPDATE counter_last SET vals = ? WHERE port_id = ?');
      for (const r of rows)
        set.run(
          JSON.stringify(lastValues(r.vals, r.names === null ? undefined : (JSON.parse(r.names) as string[]))),
          r.portId,
        );
    },
  },
  {
    before: 4,
    what: 'before cleared_at, a finding no longer observed but not yet resolved was counting clean sweeps',
    write: (db) =>
      db.exec(
        "UPDATE main.findings SET clean_sweeps = 1 WHERE state != 'resolved' AND id IN " +
          '(SELECT id FROM ref.findings WHERE cleared_at IS NOT NULL)',
      ),
  },
];

/**
 * What a migration decides about data written before it, where that differs from what today's
 * code would have stored: the upgraded database is compared with a copy of the reference that
 * has `apply` run for each migration `by` newer than the starting version.
 */
const REINTERPRETED: { by: number; what: string; apply: (db: Database.Database) => void }[] = [
  {
    by: 4,
    what: 'a finding resolved before 0004 is history: cleared as of its resolution',
    apply: (db) =>
      db.exec(
        "UPDATE findings SET cleared_at = COALESCE(resolved_at, last_seen) WHERE state = 'resolved' AND " +
          'cleared_at IS NULL',
      ),
  },
  {
    by: 4,
    what: 'a finding counting clean sweeps before 0004 is cleared as of its last sighting (the first miss is unknown)',
    apply: (db) =>
      db.exec("UPDATE findings SET cleared_at = last_seen WHERE state != 'resolved' AND cleared_at IS NOT NULL"),
  },
  {
    by: 22,
    what:
      'nccl runs stored before 0022 kept no hardware of their own: GPU model and NICs come from the labels, ' +
      'and a target kept from the 8x H100 table is said to be assumed',
    apply: (db) =>
      db.exec(
        `UPDATE nccl_runs SET gpu_model = json_extract(labels, '$.gpuModel'),
           nics_per_node = json_extract(labels, '$.hcaCount'), nic_gbps = NULL;
         UPDATE nccl_runs SET target_profile = '8x H100, 8x400G (assumed: judged before 0022, GPU model not recorded)'
           WHERE target IS NOT NULL AND gpu_model IS NULL;`,
      ),
  },
];

/**
 * Columns a later migration replaced, and the SQL that gives the old column's values from the
 * new one: the reference (latest schema) is copied into version k through it, and the upgraded
 * database's rows are compared through it.
 */
const REPLACED: { by: number; table: string; column: string; as: string }[] = [
  { by: 20, table: 'counter_deltas', column: 'interval_s', as: 'interval_ms / 1000.0' },
];

/** `column` of `table` in a SELECT on `db`: itself, or what replaced it (REPLACED). */
function readAs(db: Database.Database, schema: string, table: string, column: string): string | undefined {
  const has = (db.pragma(`${schema}.table_info("${table}")`) as { name: string }[]).some((c) => c.name === column);
  if (has) return `"${column}"`;
  return REPLACED.find((r) => r.table === table && r.column === column)?.as;
}

/** Every table's rows (of the given columns), sorted: equal means nothing was lost or changed. */
function rowsOf(db: Database.Database, columns: Map<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [t, cols] of columns) {
    const rows = db
      .prepare(`SELECT ${cols.map((c) => readAs(db, 'main', t, c) ?? `"${c}"`).join(', ')} FROM "${t}"`)
      .raw()
      .all() as unknown[][];
    out[t] = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)))
      .sort();
  }
  return out;
}

function columnsOf(db: Database.Database): Map<string, string[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return new Map(tables.map((t) => [t, (db.pragma(`table_info("${t}")`) as { name: string }[]).map((c) => c.name)]));
}

/** A database at version `k` holding the reference data as version k stored it. */
function buildAt(
  k: number,
  dir: string,
): { file: string; columns: Map<string, string[]>; rows: Record<string, string[]> } {
  const migrations = join(dir, 'migrations');
  mkdirSync(migrations);
  for (const m of MIGRATIONS.filter((x) => x.version <= k)) writeFileSync(join(migrations, m.name), m.sql);
  const file = join(dir, 'ibwatch.db');
  const db = new Database(file);
  try {
    expect(migrate(db, migrations).at(-1)).toBe(k);
    const columns = columnsOf(db);
    db.pragma('foreign_keys = OFF');
    db.prepare('ATTACH DATABASE ? AS ref').run(ref.config.dbFile);
    const refColumns = new Map(
      (db.prepare("SELECT name FROM ref.sqlite_master WHERE type = 'table'").pluck().all() as string[]).map((t) => [
        t,
        new Set((db.pragma(`ref.table_info("${t}")`) as { name: string }[]).map((c) => c.name)),
      ]),
    );
    db.transaction(() => {
      for (const [t, cols] of columns) {
        if (!refColumns.has(t)) continue;
        const shared = cols.filter((c) => readAs(db, 'ref', t, c) !== undefined);
        const into = shared.map((c) => `"${c}"`).join(', ');
        const from = shared.map((c) => readAs(db, 'ref', t, c)!).join(', ');
        // OR REPLACE: a migration may seed rows (0021 seeds change_counters) that the reference also has.
        if (shared.length) db.exec(`INSERT OR REPLACE INTO main."${t}" (${into}) SELECT ${from} FROM ref."${t}"`);
      }
      for (const f of FORMATS) if (k < f.before) f.write(db, ref.config.dbFile);
    })();
    db.exec('DETACH DATABASE ref');
    db.pragma('foreign_keys = ON');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    return { file, columns, rows: rowsOf(db, columns) };
  } finally {
    db.close();
  }
}

/**
 * /metrics without this process's own counters and histograms (metrics/registry.ts): they count
 * every scan this test file ran, in every database, so only the state read from the database
 * can be compared between the reference and an upgraded copy.
 */
function stateOf(body: string): string {
  const own = registry.getMetricsAsArray().map((m) => m.name);
  const mine = (l: string) => own.some((n) => new RegExp(`^(# (HELP|TYPE) )?${n}[_{ ]`).test(l));
  return body
    .split('\n')
    .filter((l) => !mine(l))
    .join('\n');
}

/** GET every read route (all must answer 200), at one fixed time: replies say how old data is. */
async function readAll(app: FastifyInstance, ids: number[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  vi.useFakeTimers({ toFake: ['Date'], now: THIRD_AT - 1000 });
  try {
    for (const url of [...READS, ...ids.map((id) => `/api/nccl/runs/${id}`)]) {
      const r = await app.inject(url);
      expect(r.statusCode, `${url}: ${r.body.slice(0, 300)}`).toBe(200);
      out[url] = url === '/metrics' ? stateOf(r.body) : r.json();
    }
  } finally {
    vi.useRealTimers();
  }
  return out;
}

/** The deltas the last PM scan stored. */
const lastDeltas = (ctx: Context) =>
  ctx.db
    .prepare(
      `SELECT port_id, counter_id, at, interval_ms, delta FROM counter_deltas
       WHERE scan_id = (SELECT MAX(id) FROM scans WHERE kind = 'pm') ORDER BY port_id, counter_id`,
    )
    .all();

let runIds: number[] = [];
let third: PortCounters[];
const THIRD_AT = Date.now() + 60_000;
let acked: number;
let resolved: number;

interface Expected {
  reads: Record<string, unknown>;
  /** After the next PM sweep: its deltas, and the findings. */
  deltas: unknown[];
  findings: unknown;
}
const expectations = new Map<string, Promise<Expected>>();

/**
 * What a database upgraded from version k must answer: the reference (with what the migrations
 * after k reinterpret), read through the API, then swept once more. One per distinct set of
 * reinterpretations.
 */
function expectedFor(k: number): Promise<Expected> {
  const applied = REINTERPRETED.filter((r) => r.by > k);
  const key = applied.map((r) => r.by).join(',');
  let e = expectations.get(key);
  if (!e) {
    e = (async () => {
      const dir = join(ref.dir, `expected-${key || 'none'}`);
      mkdirSync(dir);
      copyFileSync(ref.config.dbFile, join(dir, 'ibwatch.db'));
      const db = new Database(join(dir, 'ibwatch.db'));
      for (const r of applied) r.apply(db);
      db.close();
      const ctx = createContext(testConfig(dir));
      const app = await appOf(ctx);
      try {
        const reads = await readAll(app, runIds);
        await pmSweep(ctx, THIRD_AT, third);
        return { reads, deltas: lastDeltas(ctx), findings: (await readAll(app, runIds))['/api/findings?limit=10000'] };
      } finally {
        await app.close();
      }
    })();
    expectations.set(key, e);
  }
  return e;
}

beforeAll(async () => {
  const { goodRun, badRun } = await seedFabric(ref);
  runIds = [goodRun, badRun];
  const repo = createFindingsRepo(ref.db);
  const [a, b] = repo
    .list({ state: 'open', kind: 'symbol-errors', limit: 1 })
    .concat(repo.list({ state: 'open', kind: 'nccl-host-memory', limit: 1 }));
  acked = a!.id;
  resolved = b!.id;
  repo.acknowledge(acked, 'alice', Date.now(), 'reseating');
  repo.resolve(resolved, Date.now(), 'bob', 'GDR enabled again');
  // Closed, so that the file is whole without a WAL beside it (copied and attached below).
  ref.db.close();
  // The next sweep: more symbol errors on the same port.
  third = withErrors((await seedCounters())[1], ERROR_PORT, 'SymbolErrorCounter', 700n);
}, 120_000);

describe('upgrading from every earlier schema version', () => {
  it('has earlier versions to upgrade from', () => {
    expect(EARLIER).toContain(1);
    expect(FORMATS.every((f) => MIGRATIONS.some((m) => m.version === f.before))).toBe(true);
    expect(REINTERPRETED.every((r) => MIGRATIONS.some((m) => m.version === r.by))).toBe(true);
    expect(REPLACED.every((r) => MIGRATIONS.some((m) => m.version === r.by))).toBe(true);
  });

  it.each(EARLIER)(`a database at version %i opens at the latest version with its data intact`, async (k) => {
    const dir = join(ref.dir, `v${k}`);
    mkdirSync(dir);
    const before = buildAt(k, dir);
    expect(before.rows.ports!.length).toBeGreaterThan(500);
    const ctx = createContext(testConfig(dir));
    const app = await appOf(ctx);
    try {
      expect(ctx.db.pragma('user_version', { simple: true })).toBe(LATEST);
      expect(ctx.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(ctx.db.pragma('foreign_key_check')).toEqual([]);
      // Every row of version k is still there, column for column.
      expect(rowsOf(ctx.db, before.columns)).toEqual(before.rows);

      // The API answers as it does on a database that never needed upgrading.
      const expected = await expectedFor(k);
      const reads = await readAll(app, runIds);
      for (const url of Object.keys(expected.reads)) expect(reads[url], url).toEqual(expected.reads[url]);

      // Finding history: kept since 0010, told from the findings' own columns before it.
      const detail = (id: number) => app.inject(`/api/findings/${id}`).then((r) => r.json<FindingDetail>());
      const steps = async (id: number) => (await detail(id)).history.map((e) => [e.event, e.by]);
      expect(await detail(acked)).toMatchObject({ id: acked, state: 'acknowledged', acknowledgedBy: 'alice' });
      expect(await steps(acked)).toEqual([
        ['opened', null],
        ['acknowledged', 'alice'],
      ]);
      expect(await steps(resolved)).toEqual([
        ['opened', null],
        // Before 0010 nobody recorded who resolved it.
        ['resolved', k < 10 ? null : 'bob'],
      ]);

      // The next sweep continues from the stored baseline: the same deltas, the same findings.
      const row = await pmSweep(ctx, THIRD_AT, third);
      expect(row.status).toBe('ok');
      expect(lastDeltas(ctx)).toEqual(expected.deltas);
      expect((await readAll(app, runIds))['/api/findings?limit=10000']).toEqual(expected.findings);
    } finally {
      await app.close();
    }
  });
});
