import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase } from './backup.ts';
import { checkDatabase } from './check-db.ts';
import { listMigrations } from './migrate.ts';
import { seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
const out = join(ctx.dir, 'backups');
beforeAll(async () => {
  await seedFabric(ctx);
  mkdirSync(out);
}, 60_000);
afterAll(ctx.cleanup);

const LATEST = listMigrations().at(-1)!.version;
/** Every table's row count: what a restore would bring back. */
function counts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    return Object.fromEntries(
      (tables as string[]).map((t) => [t, db.prepare(`SELECT COUNT(*) FROM "${t}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

describe('backupDatabase()', () => {
  it('copies every table of the open database into a checked file, the source still open', async () => {
    const file = join(out, 'a.db');
    const r = await backupDatabase(ctx.config.dbFile, file);
    expect(r).toMatchObject({ file, schemaVersion: LATEST, integrity: 'ok' });
    expect(r.bytes).toBeGreaterThan(100_000);
    const want = counts(ctx.config.dbFile);
    expect(want.ports).toBeGreaterThan(500);
    expect(counts(file)).toEqual(want);
    expect(checkDatabase(file)).toMatchObject({ ok: true, schema: 'current', integrity: ['ok'] });
    // The source connection keeps writing after the copy.
    ctx.db.prepare("INSERT INTO settings (key, value) VALUES ('after-backup', '1')").run();
  });

  it('refuses an existing file unless forced, and leaves no temporary file behind', async () => {
    const file = join(out, 'b.db');
    writeFileSync(file, 'precious');
    await expect(backupDatabase(ctx.config.dbFile, file)).rejects.toThrow(
      `${file} exists; choose a new name or pass --force`,
    );
    expect(readFileSync(file, 'utf8')).toBe('precious');
    const r = await backupDatabase(ctx.config.dbFile, file, { force: true });
    expect(r.integrity).toBe('ok');
    expect(counts(file).settings).toBe(counts(ctx.config.dbFile).settings);
    expect(readdirSync(out).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('says why when the target directory is missing or the target is the database itself', async () => {
    await expect(backupDatabase(ctx.config.dbFile, join(out, 'nope', 'c.db'))).rejects.toThrow(
      `directory ${join(out, 'nope')} does not exist`,
    );
    await expect(backupDatabase(ctx.config.dbFile, ctx.config.dbFile, { force: true })).rejects.toThrow(
      'is the database itself',
    );
    await expect(backupDatabase(join(out, 'missing.db'), join(out, 'd.db'))).rejects.toThrow('no database at');
  });
});

describe('checkDatabase()', () => {
  it('reports a damaged file with what integrity_check found, and an older schema as upgradable', () => {
    const old = join(out, 'old.db');
    const db = new Database(old);
    db.exec(listMigrations()[0]!.sql);
    db.pragma('user_version = 1');
    db.close();
    expect(checkDatabase(old)).toMatchObject({ ok: true, schema: LATEST > 1 ? 'older' : 'current', schemaVersion: 1 });

    const bad = join(out, 'bad.db');
    const bytes = readFileSync(join(out, 'a.db'));
    // Overwrite a stretch of pages in the middle of the file: b-tree pages no longer parse.
    bytes.fill(0x5a, 40 * 4096, 60 * 4096);
    writeFileSync(bad, bytes);
    const r = checkDatabase(bad);
    expect(r.ok).toBe(false);
    expect(r.integrity.join()).not.toBe('ok');
    expect(r.problems[0]).toMatch(/^integrity_check: /);
  });

  it('backupDatabase() of a damaged database fails and writes no file', async () => {
    await expect(backupDatabase(join(out, 'bad.db'), join(out, 'from-bad.db'))).rejects.toThrow(
      'the copy failed PRAGMA integrity_check',
    );
    expect(readdirSync(out).filter((f) => f.startsWith('from-bad') || f.includes('.tmp'))).toEqual([]);
  });

  it('refuses a schema newer than this ibwatch knows', () => {
    const newer = join(out, 'newer.db');
    const db = new Database(newer);
    db.exec('CREATE TABLE scans (id INTEGER PRIMARY KEY)');
    db.pragma(`user_version = ${LATEST + 1}`);
    db.close();
    const r = checkDatabase(newer);
    expect(r).toMatchObject({ ok: false, schema: 'newer' });
    expect(r.problems.join()).toContain(`newer than this ibwatch knows (${LATEST})`);
  });
});
