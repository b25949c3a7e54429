import { describe, expect, it } from 'vitest';
import { parseOpensmLog } from './log.ts';
import { fixture } from '../diags/fixture.test-helper.ts';

const kinds = (evs: { kind: string; state?: string }[]) => evs.map((e) => (e.state ? `${e.kind}:${e.state}` : e.kind));

describe('parseOpensmLog() on lab logs', () => {
  it('standby log: takeover after 3 SMInfo timeouts, then STANDBY again on handback', () => {
    const { value, warnings } = parseOpensmLog(fixture('opensm/lab-standby-failover.log'), { year: 2026 });
    expect(warnings).toEqual([]);
    expect(kinds(value.events)).toEqual([
      'state:DISCOVERING',
      'state:STANDBY',
      'error',
      'error',
      'sminfo-timeout',
      'error',
      'error',
      'sminfo-timeout',
      'error',
      'error',
      'sminfo-timeout',
      'state:DISCOVERING',
      'state:MASTER',
      'routing',
      'subnet-up',
      'heavy-sweep',
      'state:STANDBY',
      'exit',
    ]);
    // The takeover's heavy sweep, DISCOVERING (17:47:04.645873) to SUBNET UP (17:47:04.674143).
    expect(value.events.find((e) => e.kind === 'heavy-sweep')?.durationMs).toBe(28.27);
    const master = value.events.find((e) => e.state === 'MASTER')!;
    expect(master).toMatchObject({
      time: 'Nov 29 17:47:04.666480',
      at: '2026-11-29T17:47:04.666480',
      level: 0x80,
      line: 27,
    });
    expect(value.events.find((e) => e.kind === 'routing')?.engine).toBe('minhop');
    expect(value.events.find((e) => e.kind === 'sminfo-timeout')?.errCode).toBe('3120');
  });

  it('master log: DISCOVERING -> MASTER -> SUBNET UP, and the killed master has no exit line', () => {
    const before = parseOpensmLog(fixture('opensm/lab-master-before-kill.log')).value.events;
    expect(kinds(before).slice(0, 5)).toEqual([
      'state:DISCOVERING',
      'state:MASTER',
      'routing',
      'subnet-up',
      'heavy-sweep',
    ]);
    expect(kinds(before)).not.toContain('exit');
    const restart = parseOpensmLog(fixture('opensm/lab-master-restart.log')).value.events;
    expect(kinds(restart)).toEqual([
      'state:DISCOVERING',
      'state:MASTER',
      'routing',
      'subnet-up',
      'heavy-sweep',
      'exit',
    ]);
  });
});

describe('parseOpensmLog() on the real sample', () => {
  const { value } = parseOpensmLog(fixture('opensm/sample-opensm.log'));
  it('reads opensm.log, syslog and bare stdout forms', () => {
    expect(value.events.find((e) => e.kind === 'routing')?.engine).toBe('ar_ftree');
    const syslog = value.events.filter((e) => e.host === 'fili');
    expect(syslog.map((e) => `${e.pid}:${e.state ?? e.kind}`)).toEqual([
      '3107:DISCOVERING',
      '3110:DISCOVERING',
      '3107:exit',
      '3110:STANDBY',
    ]);
    const bare = value.events.filter((e) => e.time === undefined);
    expect(kinds(bare)).toEqual(['state:DISCOVERING', 'state:STANDBY', 'state:MASTER']);
  });
  it('appends continuation lines to the event', () => {
    const e5411 = value.events.find((e) => e.errCode === '5411')!;
    expect(e5411.message).toMatch(/-- dropping Method 0x1, Attr 0x20, TID 0x11f51$/);
  });
  it('throws on binary data, warns on empty', () => {
    expect(() => parseOpensmLog('ok\n\u0000\u0001')).toThrowError(/opensm-log:2: binary data/);
    expect(parseOpensmLog('').warnings[0].message).toBe('empty log');
  });
});
