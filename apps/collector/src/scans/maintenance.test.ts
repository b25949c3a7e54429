import { describe, expect, it } from 'vitest';
import { mkdirSync, existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/open-db.ts';
import { pruneIbdiagnetDirs, pruneOnce } from './maintenance.ts';
import { tempDir, testConfig } from '../test-support.ts';

const DAY = 86_400_000;

describe('pruneOnce()', () => {
  const t = tempDir();
  it('drops what is past each retention window and keeps what is inside it', () => {
    const config = testConfig(t.dir, {
      IBWATCH_RETENTION_RAW_DAYS: '7',
      IBWATCH_RETENTION_ROLLUP_DAYS: '365',
      IBWATCH_RETENTION_RAW_OUTPUT_DAYS: '3',
      IBWATCH_RETENTION_SCAN_DAYS: '90',
    });
    const db = openDb(config.dbFile);
    const now = Date.UTC(2026, 10, 29);
    const scan = (at: number) =>
      Number(
        db.prepare("INSERT INTO scans (kind, trigger, status, started_at) VALUES ('pm', 'cli', 'ok', ?)").run(at)
          .lastInsertRowid,
      );
    const oldScan = scan(now - 100 * DAY);
    const newScan = scan(now - DAY);
    db.prepare("INSERT INTO counter_names (id, name) VALUES (1, 'SymbolErrorCounter')").run();
    const delta = db.prepare(
      'INSERT INTO counter_deltas (port_id, counter_id, at, interval_ms, delta, scan_id) VALUES (1, 1, ?, 60000, 5, ?)',
    );
    delta.run(now - 8 * DAY, newScan);
    delta.run(now - 6 * DAY, newScan);
    const rollup = db.prepare('INSERT INTO counter_rollups (port_id, counter_id, hour, delta) VALUES (1, 1, ?, 5)');
    rollup.run(now - 400 * DAY);
    rollup.run(now - 300 * DAY);
    const raw = db.prepare(
      "INSERT INTO raw_outputs (scan_id, name, created_at, bytes, gz) VALUES (?, 'x', ?, 1, x'00')",
    );
    raw.run(newScan, now - 4 * DAY);
    raw.run(newScan, now - 2 * DAY);
    const finding = db.prepare(
      'INSERT INTO findings (kind, severity, state, subject_type, subject_key, title, first_seen, last_seen, ' +
        "resolved_at) VALUES ('k', 'minor', ?, 'port', ?, 't', ?, ?, ?)",
    );
    finding.run('resolved', 'port:a/1', now - 500 * DAY, now - 400 * DAY, now - 400 * DAY);
    finding.run('resolved', 'port:a/2', now - 10 * DAY, now - 9 * DAY, now - 9 * DAY);
    finding.run('open', 'port:a/3', now - 500 * DAY, now, null);
    const ev = db.prepare("INSERT INTO sm_events (at, kind, detail) VALUES (?, 'failover', 'x')");
    ev.run(now - 400 * DAY);
    ev.run(now - DAY);

    const pruned = pruneOnce(db, config, now);

    expect(pruned).toMatchObject({ deltas: 1, rollups: 1, rawOutputs: 1, scans: 1, findings: 1, smEvents: 1 });
    expect(db.prepare('SELECT id FROM scans').pluck().all()).toEqual([newScan]);
    expect(oldScan).not.toBe(newScan);
    expect(db.prepare('SELECT subject_key FROM findings ORDER BY subject_key').pluck().all()).toEqual([
      'port:a/2',
      'port:a/3',
    ]);
    expect(db.prepare('SELECT COUNT(*) FROM counter_deltas').pluck().get()).toBe(1);
    expect(db.prepare('SELECT COUNT(*) FROM counter_rollups').pluck().get()).toBe(1);
    db.close();
    t.cleanup();
  });

  it('removes old ibdiagnet output directories it named, and nothing else', () => {
    const d = tempDir();
    const config = testConfig(d.dir, { IBWATCH_RETENTION_RAW_OUTPUT_DAYS: '3' });
    const now = Date.now();
    const mk = (name: string, ageDays: number) => {
      const p = join(config.ibdiagnetOutDir, name);
      mkdirSync(p, { recursive: true });
      const t = (now - ageDays * DAY) / 1000;
      utimesSync(p, t, t);
      return p;
    };
    const old = mk('2026-11-20T10-00-00-000Z', 9);
    const recent = mk('2026-11-28T10-00-00-000Z', 1);
    const foreign = mk('site-archive', 30);
    expect(pruneIbdiagnetDirs(config, now)).toBe(1);
    expect([existsSync(old), existsSync(recent), existsSync(foreign)]).toEqual([false, true, true]);
    d.cleanup();
  });
});
