import { describe, expect, it } from 'vitest';
import type { SmRow, SmSummary } from '@ibwatch/fabric';
import { eventLook, smAlarms, smPlace, smStateLook, sortEvents, sortSms } from './sm.ts';

const row = (guid: string, state: SmRow['state'], priority: number, extra: Partial<SmRow> = {}): SmRow => ({
  guid,
  state,
  priority,
  name: null,
  lid: 1,
  activityCount: null,
  lastSeen: 0,
  firstSeen: 0,
  answering: true,
  designated: true,
  nodeGuid: null,
  portNum: null,
  host: null,
  rack: null,
  ...extra,
});
const ok: SmSummary = {
  status: 'ok',
  masterGuid: 'a',
  masterName: 'x',
  masterCount: 1,
  standbyCount: 1,
  failoversLast24h: 0,
  lastChangeAt: null,
  missingCount: 0,
  rogueCount: 0,
  observedAt: 1,
};

describe('sm helpers', () => {
  it('puts answering SMs first (master, then by priority), then those not seen, most recently seen first', () => {
    expect(
      sortSms([
        row('d', 'STANDBY', 1, { answering: false, lastSeen: 5 }),
        row('c', 'STANDBY', 1),
        row('e', 'MASTER', 15, { answering: false, lastSeen: 9 }),
        row('b', 'STANDBY', 14),
        row('a', 'MASTER', 0),
      ]).map((s) => s.guid),
    ).toEqual(['a', 'b', 'c', 'e', 'd']);
  });

  it(
    'raises every alarm that holds: split brain, no master, rogue (naming host and port), no standby, ' + 'not seen',
    () => {
      expect(smAlarms(ok, [row('a', 'MASTER', 15), row('b', 'STANDBY', 1)])).toEqual([]);
      expect(smAlarms({ ...ok, masterCount: 2 }, [])[0]!.text).toContain('SPLIT BRAIN');
      expect(smAlarms({ ...ok, masterCount: 0 }, [])[0]!.tone).toBe('crit');
      const rogue = row('r', 'MASTER', 15, {
        designated: false,
        name: 'dgx-0003 mlx5_0',
        portNum: 1,
        host: 'dgx-0003',
      });
      const dead = row('b', 'STANDBY', 1, { answering: false, name: 'head-02 mlx5_0', portNum: 1 });
      const alarms = smAlarms({ ...ok, standbyCount: 0 }, [rogue, row('a', 'STANDBY', 15), dead]);
      expect(alarms.map((a) => [a.kind, a.tone])).toEqual([
        ['rogue', 'crit'],
        ['no-standby', 'bad'],
        ['not-seen', 'bad'],
      ]);
      expect(alarms[0]!.text).toBe(
        '✖ ROGUE SM on dgx-0003: a subnet manager (MASTER, priority 15) answers at dgx-0003 mlx5_0 port 1, ' +
          'which is not a designated SM port, and it is the master.',
      );
      expect(alarms[2]!.text).toBe('▲ Not answering: head-02 mlx5_0 port 1 (last STANDBY).');
      expect(smAlarms({ ...ok, status: 'unknown' }, [])[0]!.text).toContain('unknown');
    },
  );

  it('shows an SM that did not answer as NOT SEEN whatever its last state', () => {
    expect(smStateLook({ answering: false, state: 'MASTER', designated: true })).toMatchObject({
      label: 'NOT SEEN',
      tone: 'crit',
    });
    expect(smStateLook({ answering: false, state: 'MASTER', designated: false }).tone).toBe('muted');
    expect(smStateLook({ answering: true, state: 'STANDBY', designated: true }).label).toBe('STANDBY');
    expect(smPlace(row('0x1', 'MASTER', 1))).toBe('0x1');
    expect(smPlace(row('0x1', 'MASTER', 1, { name: 'leaf-01', portNum: 0 }))).toBe('leaf-01 port 0');
  });

  it('labels event kinds (unknown ones as themselves) and orders events newest first', () => {
    expect(eventLook('failover').label).toBe('FAILOVER');
    expect(eventLook('something-new').label).toBe('SOMETHING-NEW');
    const e = (id: number, at: number) => ({
      id,
      at,
      kind: 'failover' as const,
      fromGuid: null,
      toGuid: null,
      fromName: null,
      toName: null,
      after: null,
      detail: '',
    });
    expect(sortEvents([e(1, 5), e(2, 9), e(3, 9)]).map((x) => x.id)).toEqual([3, 2, 1]);
  });
});
