import { describe, expect, it } from 'vitest';
import type { SmLogEvent } from '@ibwatch/fabric';
import { formatSweep, logEventLook, shownLogEvents } from './sm-log.ts';

const ev = (kind: string, extra: Partial<SmLogEvent> = {}): SmLogEvent => ({
  id: 1,
  at: 0,
  time: 'Dec 01 12:00:00',
  kind,
  state: null,
  errCode: null,
  guid: null,
  host: null,
  pid: null,
  durationMs: null,
  message: kind,
  source: 'import:x',
  ...extra,
});

describe('SM log timeline', () => {
  it('keeps what an operator acts on, drops routine lines', () => {
    const kinds = shownLogEvents([ev('state'), ev('routing'), ev('sminfo-timeout'), ev('sm-port-down'), ev('error')]);
    expect(kinds.map((e) => e.kind)).toEqual(['state', 'sm-port-down', 'error']);
  });
  it('an SM bound to an unknown port GUID is shown, bad, with its ERR code', () => {
    expect(shownLogEvents([ev('sm-port-unknown')])).toHaveLength(1);
    expect(logEventLook(ev('sm-port-unknown', { errCode: '3309' }))).toEqual({
      icon: '✖',
      label: 'SM PORT UNKNOWN (ERR 3309)',
      tone: 'bad',
    });
  });
  it('labels: trouble is bad/warn, the takeover is MASTER, ERR codes shown', () => {
    expect(logEventLook(ev('state', { state: 'MASTER' }))).toEqual({ icon: '★', label: 'MASTER', tone: 'info' });
    expect(logEventLook(ev('state', { state: 'STANDBY' })).label).toBe('STANDBY');
    expect(logEventLook(ev('bind-failed')).tone).toBe('bad');
    expect(logEventLook(ev('sm-port-down')).tone).toBe('bad');
    expect(logEventLook(ev('error', { errCode: '5411' })).label).toBe('ERR 5411');
    expect(logEventLook(ev('mystery')).label).toBe('MYSTERY');
  });
  it('sweep durations in ms below a second', () => {
    expect(formatSweep(28.27)).toBe('28.3 ms');
    expect(formatSweep(1374.773)).toBe('1.4 s');
  });
});
