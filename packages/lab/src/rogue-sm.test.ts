import { describe, expect, it } from 'vitest';
import { outranks } from './rogue-sm.ts';
import type { SmState } from './state.ts';

const master = { priority: 15, portGuid: '0xb83fd203ff000001' } as SmState;

describe('outranks (who the master hands the subnet to)', () => {
  it('a higher priority wins whatever the GUID', () => {
    expect(outranks(15, '0xb83fd203ff000009', { ...master, priority: 14 })).toBe(true);
    expect(outranks(14, '0xb83fd20300000003', master)).toBe(false);
  });
  it('at equal priority the lower port GUID wins, compared as numbers', () => {
    expect(outranks(15, '0xb83fd20300000003', master)).toBe(true);
    expect(outranks(15, '0xb83fd203ff000002', master)).toBe(false);
    // As strings '0x9...' > '0x10...'; as GUIDs it is lower.
    expect(outranks(15, '0x9', { ...master, portGuid: '0x10' })).toBe(true);
  });
  it('with no master known, any SM may take the subnet', () => {
    expect(outranks(0, '0xb83fd20300000003', undefined)).toBe(true);
  });
});
