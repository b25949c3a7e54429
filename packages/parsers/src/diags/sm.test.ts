import { describe, expect, it } from 'vitest';
import { parseSminfo } from './sminfo.ts';
import { parseSaquerySmir } from './saquery.ts';
import { fixture } from './fixture.test-helper.ts';

const MASTER = '0xb83fd20300002011';
const STANDBY = '0xb83fd20300002201';

describe('parseSminfo()', () => {
  it('reads the master from the lab', () => {
    const { value, warnings } = parseSminfo(fixture('diags/lab-sminfo.txt'));
    expect(warnings).toEqual([]);
    expect(value).toEqual([{ guid: MASTER, lid: 1, activityCount: 3165n, priority: 15, state: 'MASTER' }]);
  });

  it('reads a standby queried by LID, and the standby as master after failover', () => {
    expect(parseSminfo(fixture('diags/lab-sminfo-standby.txt')).value[0]).toMatchObject({
      guid: STANDBY,
      lid: 3,
      priority: 1,
      state: 'STANDBY',
    });
    expect(parseSminfo(fixture('diags/lab-sminfo-after-failover.txt')).value[0]).toMatchObject({
      guid: STANDBY,
      lid: 3,
      priority: 1,
      state: 'MASTER',
    });
    expect(parseSminfo(fixture('diags/lab-sminfo-after-handback.txt')).value[0]).toMatchObject({
      guid: MASTER,
      state: 'MASTER',
    });
  });

  it('pads short GUIDs and warns about banner lines (real 2008 sample)', () => {
    const { value, warnings } = parseSminfo(fixture('diags/sample-sminfo.txt'));
    expect(value).toHaveLength(4);
    expect(value[0]).toMatchObject({
      guid: '0x0002c90200259201',
      lid: 2,
      priority: 0,
      state: 'MASTER',
      activityCount: 6881n,
    });
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatchObject({ line: 1 });
  });

  it('throws on the tool failure line, an incomplete line, and empty output', () => {
    expect(() => parseSminfo(fixture('diags/sminfo-failure.bad.txt'), { file: 'f.txt' })).toThrowError(
      'sminfo:f.txt:1: sminfo reported a failure: "sminfo: iberror: failed: query"',
    );
    expect(() => parseSminfo(fixture('diags/sminfo-short.bad.txt'))).toThrowError(/no "sminfo: sm lid/);
    expect(() => parseSminfo('\n\n')).toThrowError('sminfo: empty output');
  });
});

describe('parseSaquerySmir()', () => {
  it('lists master and standby', () => {
    const { value, warnings } = parseSaquerySmir(fixture('diags/lab-saquery-smir.txt'));
    expect(warnings).toEqual([]);
    expect(value).toEqual([
      { guid: MASTER, lid: 1, priority: 15, state: 'MASTER', activityCount: 3166n },
      { guid: STANDBY, lid: 3, priority: 1, state: 'STANDBY', activityCount: 578n },
    ]);
  });

  it('follows a failover and the handback', () => {
    const after = parseSaquerySmir(fixture('diags/lab-saquery-smir-after-failover.txt')).value;
    expect(after).toEqual([expect.objectContaining({ guid: STANDBY, state: 'MASTER', priority: 1 })]);
    const back = parseSaquerySmir(fixture('diags/lab-saquery-smir-after-handback.txt')).value;
    expect(back.map((s) => [s.guid, s.state])).toEqual([
      [MASTER, 'MASTER'],
      [STANDBY, 'STANDBY'],
    ]);
  });

  it('drops a record cut mid-way with a warning', () => {
    const { value, warnings } = parseSaquerySmir(fixture('diags/saquery-smir-truncated.bad.txt'));
    expect(value).toHaveLength(1);
    expect(warnings).toEqual([{ line: 10, message: 'incomplete SMInfoRecord (output cut?); dropped' }]);
  });

  it('parses CRLF and throws on empty/binary', () => {
    const lf = fixture('diags/lab-saquery-smir.txt');
    expect(parseSaquerySmir(lf.replace(/\n/g, '\r\n')).value).toEqual(parseSaquerySmir(lf).value);
    expect(() => parseSaquerySmir('')).toThrowError('saquery-smir: empty output');
    expect(() => parseSaquerySmir(fixture('diags/binary.bad.txt'))).toThrowError(/binary data/);
  });
});
