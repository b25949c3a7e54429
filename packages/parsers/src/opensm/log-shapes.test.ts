import { describe, expect, it } from 'vitest';
import { fixture } from '../diags/fixture.test-helper.ts';
import { parseOpensmLog } from './log.ts';

const kinds = (evs: { kind: string; state?: string }[]) => evs.map((e) => (e.state ? `${e.kind}:${e.state}` : e.kind));

describe('parseOpensmLog() on syslog from OpenSM 3.2-3.3', () => {
  const { value, warnings } = parseOpensmLog(fixture('opensm/syslog-3.3.log'), { year: 2027 });
  it('reads #012-terminated messages, skips other programs, joins a wrapped message', () => {
    expect(warnings).toEqual([]);
    expect(kinds(value.events)).toEqual([
      'state:DISCOVERING',
      'state:STANDBY',
      'sminfo-timeout',
      'sminfo-timeout',
      'sminfo-timeout',
      'state:DISCOVERING',
      'state:MASTER',
      'error',
      'routing',
      'subnet-up',
      'heavy-sweep',
      'sm-port-down',
      'handover',
      'state:STANDBY',
      'exit',
    ]);
    expect(value.skippedLines).toBe(2);
    const wrapped = value.events.find((e) => e.errCode === '5411')!;
    const joined = 'DR SMP Send completed with error (IB_TIMEOUT) -- dropping Method 0x1, Attr 0x20, TID 0x14af';
    expect(wrapped.message).toBe(`log_send_error: ERR 5411: ${joined}`);
    expect(wrapped.line).toBe(11);
    expect(value.events.every((e) => !e.message.includes('#012'))).toBe(true);
  });
  it('infers the year back from the last line across Dec 31 -> Jan 1', () => {
    expect(value.events[0]).toMatchObject({
      time: 'Dec 31 23:58:10',
      at: '2026-12-31T23:58:10',
      host: 'sm1',
      pid: 2841,
    });
    const master = value.events.find((e) => e.state === 'MASTER')!;
    expect(master.at).toBe('2027-01-01T00:00:01');
    expect(value.events.find((e) => e.kind === 'handover')).toMatchObject({
      guid: '0xb83fd20300002011',
      at: '2027-01-01T00:05:44',
    });
  });
  it('times the takeover heavy sweep from DISCOVERING to SUBNET UP', () => {
    const sweep = value.events.find((e) => e.kind === 'heavy-sweep')!;
    expect(sweep).toMatchObject({ startLine: 9, line: 14, startTime: 'Jan 01 00:00:01', durationMs: 1000 });
  });
  it('infers the year from `now`: a December log read on Jan 2 is last year', () => {
    const dec = 'Dec 31 23:58:10 sm1 OpenSM[1]: Entering STANDBY state#012\n';
    const r = parseOpensmLog(dec, { now: new Date(2027, 0, 2, 10, 0, 0) });
    expect(r.value.events[0].at).toBe('2026-12-31T23:58:10');
    const same = parseOpensmLog(dec, { now: new Date(2026, 11, 31, 23, 59, 0) });
    expect(same.value.events[0].at).toBe('2026-12-31T23:58:10');
  });
});

describe('parseOpensmLog() on RFC 3339 syslog lines', () => {
  it('takes the year from the line, and gives it to the yearless lines around', () => {
    const log = [
      '2026-12-31T23:59:59.250000+00:00 sm1 OpenSM[7]: Entering MASTER state#012',
      'Jan  1 00:00:03 sm1 OpenSM[7]: SM port is down#012',
    ].join('\n');
    const { value } = parseOpensmLog(`${log}\n`, { year: 1999 });
    expect(value.events.map((e) => e.at)).toEqual(['2026-12-31T23:59:59.250000', '2027-01-01T00:00:03']);
  });
});

describe('parseOpensmLog() on MLNX OpenSM 5.x', () => {
  const { value, warnings } = parseOpensmLog(fixture('opensm/mlnx-5.log'), { year: 2026 });
  it('reads 64-bit thread ids, the console prompt and the sweep boxes', () => {
    expect(warnings).toEqual([]);
    expect(kinds(value.events)).toEqual([
      'state:DISCOVERING',
      'state:MASTER',
      'routing',
      'subnet-up',
      'heavy-sweep',
      'error',
      'sm-port-down',
      'sm-port-up',
      'subnet-up',
      'heavy-sweep',
      'exit',
    ]);
    expect(value.events.find((e) => e.kind === 'routing')?.engine).toBe('ar_ftree');
  });
  it('times heavy sweeps from the explicit start to SUBNET UP', () => {
    const [first, second] = value.events.filter((e) => e.kind === 'heavy-sweep');
    // The HEAVY SWEEP START box belongs to the `do_sweep:` record on line 7 (prompt stripped).
    expect(first).toMatchObject({ startLine: 7, startTime: 'Dec 01 12:00:00.148020', durationMs: 140.416 });
    expect(second).toMatchObject({ startTime: 'Dec 01 12:03:21.641002', durationMs: 1374.773 });
    expect(second.at).toBe('2026-12-01T12:03:23.015775');
  });
  it('SM port down carries the SM timestamp to the microsecond', () => {
    expect(value.events.find((e) => e.kind === 'sm-port-down')).toMatchObject({
      at: '2026-12-01T12:03:17.502377',
      level: 2,
    });
  });
});

describe('parseOpensmLog() on systemctl status output', () => {
  const { value, warnings } = parseOpensmLog(fixture('opensm/systemctl-status.txt'), { year: 2026 });
  it('skips the unit header and systemd lines, finds the bind failure and the exit', () => {
    expect(warnings).toEqual([]);
    expect(kinds(value.events)).toEqual(['state:DISCOVERING', 'bind-failed', 'bind-failed', 'bind-failed', 'exit']);
    expect(value.events[1]).toMatchObject({ errCode: '5426', pid: 40230, at: '2026-12-01T12:20:02' });
    expect(value.skippedLines).toBe(13);
    expect(value.otherLines).toBe(3);
  });
});

describe('parseOpensmLog() on a log cut mid-line', () => {
  it('keeps the events before the cut and warns naming the last line', () => {
    const { value, warnings } = parseOpensmLog(fixture('opensm/cut-mid-line.log'), { file: 'osm.log', year: 2026 });
    expect(kinds(value.events).slice(-2)).toEqual(['state:DISCOVERING', 'state:MASTER']);
    expect(warnings).toEqual([
      { message: 'log cut mid-line: the last line has no newline', line: 28, file: 'osm.log' },
    ]);
    const bytes = new TextEncoder().encode(fixture('opensm/cut-mid-line.log'));
    expect(parseOpensmLog(bytes).warnings[0].line).toBe(28);
  });
  it('still fails on binary data with file and line', () => {
    expect(() => parseOpensmLog('Dec 01 12:00:00 sm1 OpenSM[1]: x\n\u0000\u0000', { file: 'osm.log' })).toThrowError(
      /^opensm-log:osm\.log:2: binary data/,
    );
  });
  it('a heavy sweep still open at the end has no event; STANDBY cancels one', () => {
    const log = [
      'Dec 01 12:00:00 000001 [1] 0x80 -> Entering DISCOVERING state',
      'Dec 01 12:00:00 000002 [1] 0x80 -> Entering STANDBY state',
      'Dec 01 12:00:09 000003 [1] 0x02 -> SUBNET UP',
      'Dec 01 12:00:10 000004 [1] 0x02 -> do_sweep: Entering heavy sweep with flags: force_heavy_sweep 1',
    ].join('\n');
    const { value } = parseOpensmLog(log + '\n');
    expect(kinds(value.events)).toEqual(['state:DISCOVERING', 'state:STANDBY', 'subnet-up']);
    expect(value.openSweepLine).toBe(4);
  });
});
