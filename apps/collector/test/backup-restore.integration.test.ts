// docs/operations.md, followed step by step against a live lab: `ibwatch serve` sweeping PM
// counters every second while `ibwatch backup` copies its database; the copy passes
// integrity_check and holds the rows; then the documented restore (stop, copy, check-db, start)
// brings the collector back on the copy, which it keeps sweeping into.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLab, stopLab } from '@ibwatch/lab';
import { listMigrations } from '../src/db/migrate.ts';
import { listeningUrl, runCli, spawnServer, type ServerProcess } from '../src/test-support.ts';

const root = mkdtempSync(join(tmpdir(), 'ibwatch-backup-it-'));
const labDir = join(root, 'lab');
const dbFile = join(root, 'ibwatch.db');
const backup = join(root, 'backup.db');
const servers: ServerProcess[] = [];
const LATEST = listMigrations().at(-1)!.version;

function serve(): ServerProcess {
  const s = spawnServer({
    IBWATCH_SOURCE: 'lab',
    IBWATCH_LAB_DIR: labDir,
    IBWATCH_DB: dbFile,
    IBWATCH_WEB_DIST: join(root, 'no-web'),
    IBWATCH_CRON_PM: '* * * * * *',
    IBWATCH_CRON_SM: '*/5 * * * * *',
    IBWATCH_CRON_TOPOLOGY: '*/10 * * * * *',
    IBWATCH_JITTER_MS: '0',
  });
  servers.push(s);
  return s;
}

/** A read-only look at a database file (the server keeps its own connection). */
function query<T>(file: string, sql: string): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).pluck().get() as T;
  } finally {
    db.close();
  }
}
const okPmScans = (file: string) =>
  query<number>(file, "SELECT COUNT(*) FROM scans WHERE kind = 'pm' AND status = 'ok'");

beforeAll(async () => {
  await startLab({ gpus: 64, tiers: 2, dir: labDir });
}, 120_000);
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await stopLab(labDir);
  rmSync(root, { recursive: true, force: true });
});

describe('backup while serving, then restore', () => {
  it('ibwatch backup copies the live database; restore brings the collector back on the copy', async () => {
    const s = serve();
    await listeningUrl(s, 60_000);
    // Sweeping: a few PM scans stored, more every second.
    await vi.waitFor(
      () => {
        if (okPmScans(dbFile) < 5) throw new Error(`${okPmScans(dbFile)} PM scans so far`);
      },
      { timeout: 60_000, interval: 250 },
    );
    const before = okPmScans(dbFile);
    const r = await runCli(['backup', backup, '--json', '--db', dbFile]);
    expect(r.code, r.stderr).toBe(0);
    const after = okPmScans(dbFile);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: backup, schemaVersion: LATEST, integrity: 'ok' });

    // The copy is whole and of its moment: every scan stored before the backup started, none
    // stored after it finished, and the server went on sweeping meanwhile.
    const copy = new Database(backup, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('user_version', { simple: true })).toBe(LATEST);
      const inCopy = copy.prepare("SELECT COUNT(*) FROM scans WHERE kind = 'pm' AND status = 'ok'").pluck().get();
      expect(inCopy).toBeGreaterThanOrEqual(before);
      expect(inCopy).toBeLessThanOrEqual(after);
      expect(copy.prepare('SELECT COUNT(*) FROM ports').pluck().get()).toBe(
        query(dbFile, 'SELECT COUNT(*) FROM ports'),
      );
      expect(copy.prepare('SELECT COUNT(*) FROM counter_baseline').pluck().get()).toBe(1);
    } finally {
      copy.close();
    }
    await vi.waitFor(
      () => {
        if (okPmScans(dbFile) <= after) throw new Error('no PM scan since the backup');
      },
      { timeout: 30_000, interval: 250 },
    );

    // An existing backup is not overwritten without --force.
    const kept = readFileSync(backup);
    const again = await runCli(['backup', backup, '--db', dbFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${backup} exists; choose a new name or pass --force to replace it`);
    expect(readFileSync(backup).equals(kept)).toBe(true);
    const forced = await runCli(['backup', backup, '--force', '--db', dbFile]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/written to .*backup\.db: .* MB, schema version \d+, integrity ok/);
    const backedUp = query<number>(backup, "SELECT COUNT(*) FROM scans WHERE kind = 'pm' AND status = 'ok'");
    expect(backedUp).toBeGreaterThan(after);
    const lastInBackup = query<number>(backup, 'SELECT MAX(id) FROM scans');

    // Restore as docs/operations.md says: stop, set the old files aside, copy, check, start.
    await vi.waitFor(
      () => {
        if (query<number>(dbFile, 'SELECT MAX(id) FROM scans') <= lastInBackup) throw new Error('no scan yet');
      },
      { timeout: 30_000, interval: 250 },
    );
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });
    copyFileSync(backup, dbFile);
    const check = await runCli(['check-db', dbFile]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain(`${dbFile}: ok`);
    expect(check.stdout).toContain(`schema version ${LATEST} (current`);

    const restartedAt = Date.now();
    const restarted = serve();
    await listeningUrl(restarted, 60_000);
    await vi.waitFor(
      () => {
        if (okPmScans(dbFile) <= backedUp + 2) throw new Error('not sweeping into the restored database yet');
      },
      { timeout: 60_000, interval: 250 },
    );
    // The restored history is the backup's: the scans stored after it are gone, and the next
    // scan ids belong to scans of the restarted server.
    expect(query(dbFile, `SELECT COUNT(*) FROM scans WHERE id <= ${lastInBackup}`)).toBe(
      query(backup, 'SELECT COUNT(*) FROM scans'),
    );
    expect(
      query<number>(dbFile, `SELECT MIN(started_at) FROM scans WHERE id > ${lastInBackup}`),
    ).toBeGreaterThanOrEqual(restartedAt);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  }, 300_000);
});
