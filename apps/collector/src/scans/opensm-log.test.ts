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
