import {
  appendFileSync,
  copyFileSync,
  readFileSync,
  renameSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { createOpensmLogRepo } from '../db/opensm-log-repo.ts';
import { appOf, REPO_ROOT, testContext } from '../test-support.ts';
import { createOpensmFollower } from './opensm-follow.ts';
import { importOpensmLogFile, storeOpensmLog } from './opensm-log.ts';

const FIXTURES = join(REPO_ROOT, 'packages/parsers/fixtures/opensm');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const contexts: ReturnType<typeof testContext>[] = [];
const ctxOf = () => {
  const c = testContext({ IBWATCH_AUTO_RESOLVE_MIN: '0' });
  contexts.push(c);
  return c;
};
afterEach(() => {
  for (const c of contexts.splice(0)) c.cleanup();
});

const logFindings = (ctx: ReturnType<typeof testContext>) =>
  createFindingsRepo(ctx.db)
    .list({ state: 'current', limit: 100 })
    .filter((f) => f.kind.startsWith('opensm-log-'))
    .map((f) => `${f.kind}:${f.severity}`)
    .sort();

describe('ibwatch import opensm-log', () => {
  it('stores the failover with the SM timestamps, and importing twice stores once', () => {
    const ctx = ctxOf();
    const file = join(ctx.dir, 'osm.log');
    copyFileSync(join(FIXTURES, 'lab-standby-failover.log'), file);
    utimesSync(file, new Date(2026, 11, 1), new Date(2026, 11, 1)); // the year comes from the mtime
    const first = importOpensmLogFile(ctx.db, ctx.config, file);
    expect(first).toMatchObject({ events: 18, stored: 18 });
    const again = importOpensmLogFile(ctx.db, ctx.config, file);
    expect(again).toMatchObject({ events: 18, stored: 0 });
    const events = createOpensmLogRepo(ctx.db).list(100);
    expect(events).toHaveLength(18);
    const master = events.find((e) => e.state === 'MASTER')!;
    expect(master).toMatchObject({ time: 'Nov 29 17:47:04.666480', source: 'import:osm.log', kind: 'state' });
    expect(master.at).toBe(new Date(2026, 10, 29, 17, 47, 4, 666).getTime());
    expect(events.find((e) => e.kind === 'heavy-sweep')?.durationMs).toBe(28.27);
  });

  it('findings: a bind failure and the exit open; the SM coming up clears the bind failure', () => {
    const ctx = ctxOf();
    const now = new Date(2026, 11, 1, 13, 0);
    const opts = { source: 'import:status.txt', now, at: now.getTime() };
    const r = storeOpensmLog(ctx.db, ctx.config, fixture('systemctl-status.txt'), opts);
    expect(r.findingsOpened).toBe(2);
    expect(logFindings(ctx)).toEqual(['opensm-log-bind-failed:major', 'opensm-log-exit:minor']);
    const later =
      'Dec 01 12:30:00 sm1 OpenSM[40500]: Entering DISCOVERING state\n' +
      'Dec 01 12:30:01 sm1 OpenSM[40500]: Entering STANDBY state\n';
    storeOpensmLog(ctx.db, ctx.config, later, { ...opts, at: opts.at + 60_000 });
    expect(logFindings(ctx)).toEqual([]);
  });

  it('a master whose SM port went down: major until the port is up again', () => {
    const ctx = ctxOf();
    const now = new Date(2026, 11, 1, 13, 0);
    const text = fixture('mlnx-5.log').split('\n');
    const upTo = (pattern: string) => `${text.slice(0, text.findIndex((l) => l.includes(pattern)) + 1).join('\n')}\n`;
    storeOpensmLog(ctx.db, ctx.config, upTo('SM port is down'), { source: 'x', now, at: now.getTime() });
    expect(logFindings(ctx)).toEqual(['opensm-log-port-down:major']);
    storeOpensmLog(ctx.db, ctx.config, fixture('mlnx-5.log'), { source: 'x', now, at: now.getTime() + 1000 });
    // The port came back, then the master exited: a master gone is major.
    expect(logFindings(ctx)).toEqual(['opensm-log-exit:major']);
  });
});

describe('following IBWATCH_OPENSM_LOG', () => {
  const lines = fixture('lab-standby-failover.log').split('\n').slice(0, -1);
  const chunk = (from: number, to: number) => `${lines.slice(from, to).join('\n')}\n`;

  it('reads complete lines only, survives a restart without re-reading, rotation and truncation', () => {
    const ctx = ctxOf();
    const path = join(ctx.dir, 'opensm.log');
    writeFileSync(path, chunk(0, 10) + lines[10].slice(0, 30)); // line 11 still being written
    const f1 = createOpensmFollower(ctx.db, ctx.config, path);
    f1.poll(Date.UTC(2026, 10, 29, 18));
    const count = () => createOpensmLogRepo(ctx.db).list(1000).length;
    expect(count()).toBe(2); // DISCOVERING, STANDBY
    expect(f1.status()).toMatchObject({ offset: Buffer.byteLength(chunk(0, 10)), error: null });
    f1.stop();

    // A restart: the new follower starts at the stored offset; the half line is completed.
    appendFileSync(path, `${lines[10].slice(30)}\n${chunk(11, 27)}`);
    const f2 = createOpensmFollower(ctx.db, ctx.config, path);
    const r = f2.poll(Date.UTC(2026, 10, 29, 18));
    expect(r?.events).toBe(count() - 2);
    expect(createOpensmLogRepo(ctx.db).list(1).at(0)?.state).toBe('MASTER');

    // Rotation (logrotate `create`): the old file's last lines, then the new file.
    appendFileSync(path, chunk(27, 29));
    renameSync(path, `${path}.1`);
    writeFileSync(path, chunk(29, 32));
    f2.poll(Date.UTC(2026, 10, 29, 18));
    const kinds = createOpensmLogRepo(ctx.db)
      .list(4)
      .map((e) => e.state ?? e.kind);
    expect(kinds).toEqual(['STANDBY', 'heavy-sweep', 'subnet-up', 'routing']);

    // Truncation in place (copytruncate): read again from the start.
    truncateSync(path, 0);
    appendFileSync(path, chunk(32, 33));
    f2.poll(Date.UTC(2026, 10, 29, 18));
    expect(createOpensmLogRepo(ctx.db).list(1).at(0)?.kind).toBe('exit');
    // All 18 events of the file: the heavy sweep too, although its start (DISCOVERING) and its
    // end (SUBNET UP) came in two polls.
    expect(count()).toBe(18);
    expect(
      createOpensmLogRepo(ctx.db)
        .list(100)
        .find((e) => e.kind === 'heavy-sweep')?.durationMs,
    ).toBe(28.27);
    f2.stop();
  });

  it('a missing file is a status error, not an exception', () => {
    const ctx = ctxOf();
    const f = createOpensmFollower(ctx.db, ctx.config, join(ctx.dir, 'nope.log'));
    expect(f.poll()).toBeNull();
    expect(f.status().error).toMatch(/nope\.log/);
  });
});

describe('GET /api/sms/log', () => {
  it('lists the events newest first with the reply shape', async () => {
    const ctx = ctxOf();
    const now = new Date(2026, 11, 1, 13, 0);
    storeOpensmLog(ctx.db, ctx.config, fixture('syslog-3.3.log'), { source: 'import:s', now, at: now.getTime() });
    const app = await appOf(ctx);
    const res = await app.inject({ method: 'GET', url: '/api/sms/log?limit=3' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.follow).toBeNull();
    expect(body.events.map((e: { kind: string }) => e.kind)).toEqual(['exit', 'state', 'handover']);
    expect(body.events[2]).toMatchObject({
      guid: '0xb83fd20300002011',
      host: 'sm1',
      pid: 2841,
      time: 'Jan 01 00:05:44',
    });
    expect(Object.keys(body.events[0]).sort()).toEqual([
      'at',
      'durationMs',
      'errCode',
      'guid',
      'host',
      'id',
      'kind',
      'message',
      'pid',
      'source',
      'state',
      'time',
    ]);
    await app.close();
  });
});

describe('issue 33: SM port GUID unknown, port down cleared by MASTER, a cut log', () => {
  it('an SM bound to a GUID the fabric lacks (ERR 7526/3309/3320, never MASTER) is a major finding', () => {
    const ctx = ctxOf();
    const now = new Date(2023, 7, 22, 12, 0);
    storeOpensmLog(ctx.db, ctx.config, fixture('mlnx-5.7-port-unknown-ctrl-c.log'), {
      source: 'import:osm.log',
      now,
      at: now.getTime(),
    });
    expect(logFindings(ctx)).toEqual(['opensm-log-port-unknown:major']);
    const f = createFindingsRepo(ctx.db).list({ state: 'current', limit: 10 })[0];
    expect(f.title).toBe(
      'SM bound to port GUID 0x1122334477667791, which the fabric does not have: no MASTER state ' +
        '(ERR 3309, ERR 3320, ERR 7526) (OpenSM log, Aug 22 11:30:43.935340)',
    );
    expect(f.evidence).toMatchObject({ errCodes: ['3309', '3320', '7526'], guid: '0x1122334477667791' });
  });

  it('Debian 3.3.23 with -g naming no local port: "SM cannot bind" with ERR 5422 and the GUID', () => {
    const ctx = ctxOf();
    const now = new Date(2026, 11, 6, 4, 0);
    storeOpensmLog(ctx.db, ctx.config, fixture('lab-bad-guid.log'), { source: 'x', now, at: now.getTime() });
    const titles = createFindingsRepo(ctx.db)
      .list({ state: 'current', limit: 10 })
      .map((f) => f.title)
      .sort();
    expect(titles[0]).toBe('OpenSM exited (was DISCOVERING) (OpenSM log, Dec 06 03:05:52.057952)');
    expect(titles[1]).toBe(
      'SM cannot bind to port GUID 0x2c903000bad01: ERR 5422 (OpenSM log, Dec 06 03:05:52.051100)',
    );
  });

  it('"SM port is down" clears when a later import of the same SM shows MASTER and SUBNET UP', () => {
    const ctx = ctxOf();
    const now = new Date(2026, 11, 1, 13, 0);
    const opts = { source: 'import:a.log', now, at: now.getTime() };
    storeOpensmLog(ctx.db, ctx.config, 'Dec 01 12:00:00 sm1 OpenSM[700]: SM port is down#012\n', opts);
    expect(logFindings(ctx)).toEqual(['opensm-log-port-down:major']);
    // Another SM's MASTER does not clear it: its port is not this one.
    storeOpensmLog(ctx.db, ctx.config, 'Dec 01 12:01:00 sm2 OpenSM[800]: Entering MASTER state#012\n', {
      ...opts,
      at: opts.at + 1000,
    });
    expect(logFindings(ctx)).toEqual(['opensm-log-port-down:major']);
    const later =
      'Dec 01 12:05:00 sm1 OpenSM[701]: Entering DISCOVERING state#012\n' +
      'Dec 01 12:05:01 sm1 OpenSM[701]: Entering MASTER state#012\n' +
      'Dec 01 12:05:01 sm1 OpenSM[701]: SUBNET UP#012\n';
    storeOpensmLog(ctx.db, ctx.config, later, { ...opts, source: 'import:b.log', at: opts.at + 2000 });
    expect(logFindings(ctx)).toEqual([]);
  });

  it('a log cut by Ctrl-C: a partial import-opensm-log scan, warning with file and line, events kept', async () => {
    const ctx = ctxOf();
    const file = join(ctx.dir, 'osm.log');
    copyFileSync(join(FIXTURES, 'mlnx-5.7-port-unknown-ctrl-c.log'), file);
    const row = await ctx.scans.importOpensmLog(file, 'cli');
    expect(row).toMatchObject({ kind: 'import-opensm-log', status: 'partial' });
    expect(row.error).toBe('osm.log:6: log cut by Ctrl-C (the last line ends in ^C)');
    expect(row.summary).toMatchObject({ file: 'osm.log', events: 5, stored: 5 });
    expect(row.summary.cut).toBe('osm.log:6: log cut by Ctrl-C (the last line ends in ^C)');
    expect(createOpensmLogRepo(ctx.db).list(10)).toHaveLength(5);
    const whole = join(ctx.dir, 'whole.log');
    copyFileSync(join(FIXTURES, 'lab-standby-failover.log'), whole);
    expect(await ctx.scans.importOpensmLog(whole, 'cli')).toMatchObject({ status: 'ok', error: null });
  });
});
