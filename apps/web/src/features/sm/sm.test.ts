import { describe, expect, it } from 'vitest';
import type { SmRow, SmSummary } from '@ibwatch/fabric';
import { smAlarm, smLabel, sortEvents, sortSms } from './sm.ts';

const row = (guid: string, state: SmRow['state'], priority: number, name: string | null = null): SmRow => ({
  guid,
  state,
  priority,
  name,
  lid: 1,
  activityCount: null,
  lastSeen: 0,
});
const ok: SmSummary = {
  status: 'ok',
  masterGuid: 'a',
  masterName: 'x',
  masterCount: 1,
  standbyCount: 1,
  failoversLast24h: 0,
  lastChangeAt: null,
};

describe('sm helpers', () => {
  it('puts the master first, then by priority', () => {
    expect(
      sortSms([row('c', 'STANDBY', 1), row('b', 'STANDBY', 14), row('a', 'MASTER', 0)]).map((s) => s.guid),
    ).toEqual(['a', 'b', 'c']);
  });
  it('raises alarms for split brain, no master and no standby', () => {
    expect(smAlarm(ok)).toBeNull();
    expect(smAlarm({ ...ok, status: 'split-brain', masterCount: 2 })?.text).toContain('SPLIT BRAIN');
    expect(smAlarm({ ...ok, status: 'no-master', masterCount: 0 })?.tone).toBe('crit');
    expect(smAlarm({ ...ok, standbyCount: 0 })?.tone).toBe('warn');
  });
  it('labels GUIDs and orders events newest first', () => {
    expect(smLabel([row('0x1', 'MASTER', 1, 'ufm-01')], '0x1')).toBe('ufm-01 (0x1)');
    expect(smLabel([], '0x2')).toBe('0x2');
    expect(smLabel([], null)).toBe('—');
    const e = (id: number, at: number) => ({
      id,
      at,
      kind: 'failover' as const,
      fromGuid: null,
      toGuid: null,
      detail: '',
    });
    expect(sortEvents([e(1, 5), e(2, 9), e(3, 9)]).map((x) => x.id)).toEqual([3, 2, 1]);
  });
});
