import { describe, expect, it } from 'vitest';
import { fixture } from '../diags/fixture.test-helper.ts';
import { cutAt, parseOpensmLog } from './log.ts';

describe('OpenSM bound to a port GUID the fabric does not have', () => {
  it('MLNX 5.7: ERR 7526, 3309 and 3320 are sm-port-unknown events with the GUID', () => {
    const { value } = parseOpensmLog(fixture('opensm/mlnx-5.7-port-unknown-ctrl-c.log'), { year: 2023 });
    const unknown = value.events.filter((e) => e.kind === 'sm-port-unknown');
    expect(unknown.map((e) => [e.errCode, e.guid, e.line])).toEqual([
      ['7526', '0x1122334477667791', 2],
      ['3309', '0x1122334477667791', 4],
      ['3320', '0x1122334477667791', 5],
    ]);
    expect(value.events.some((e) => e.kind === 'state')).toBe(false);
  });

  it('Debian 3.3.23 (captured on the lab): ERR 5422 is a bind failure naming the GUID, then Exiting SM', () => {
    const { value, warnings } = parseOpensmLog(fixture('opensm/lab-bad-guid.log'), { year: 2026 });
    expect(warnings).toEqual([]);
    const bind = value.events.filter((e) => e.kind === 'bind-failed');
    expect(bind.map((e) => [e.errCode, e.guid ?? null])).toEqual([
      ['5422', '0x2c903000bad01'],
      ['3118', null],
      ['2E10', null],
    ]);
    expect(value.events.at(-1)?.kind).toBe('exit');
  });
});

describe('a log cut short', () => {
  it('a capture stopped with Ctrl-C (last line ends in ^C) is warned about with file and line', () => {
    const r = parseOpensmLog(fixture('opensm/mlnx-5.7-port-unknown-ctrl-c.log'), { file: 'osm.log', year: 2023 });
    expect(r.value.cut).toEqual({ line: 6, why: 'log cut by Ctrl-C (the last line ends in ^C)' });
    expect(r.warnings).toContainEqual({ file: 'osm.log', line: 6, message: r.value.cut!.why });
    // Nothing before the cut is lost.
    expect(r.value.events.filter((e) => e.errCode)).toHaveLength(5);
  });

  it('a last line whose stamp is cut is a cut log; a whole log is not', () => {
    const whole = fixture('opensm/lab-standby-failover.log');
    expect(cutAt(whole)).toBeUndefined();
    expect(cutAt(`${whole}Nov 29 17:49:1\n`)).toEqual({
      line: whole.split('\n').length,
      why: 'log cut mid-line: the last line has no whole stamp',
    });
    expect(cutAt(whole.slice(0, -5))?.why).toBe('log cut mid-line: the last line has no newline');
  });
});
