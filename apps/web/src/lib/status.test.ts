import { describe, expect, it } from 'vitest';
import { healthLook, isSeverity, lifecycleLook, severityLook, sortBySeverity, worstHealth } from './status.ts';

describe('sortBySeverity()', () => {
  it('puts critical first, then most recent within a severity', () => {
    const rows = [
      { id: 1, severity: 'minor' as const, lastSeen: 5 },
      { id: 2, severity: 'critical' as const, lastSeen: 1 },
      { id: 3, severity: 'info' as const, lastSeen: 9 },
      { id: 4, severity: 'critical' as const, lastSeen: 7 },
      { id: 5, severity: 'major' as const, lastSeen: 3 },
    ];
    expect(sortBySeverity(rows).map((r) => r.id)).toEqual([4, 2, 5, 1, 3]);
    expect(rows[0].id).toBe(1); // input untouched
  });
});

describe('status looks', () => {
  it('never relies on colour alone: every state has an icon and a label', () => {
    for (const l of [...Object.values(healthLook), ...Object.values(severityLook)]) {
      expect(l.icon.length).toBeGreaterThan(0);
      expect(l.label.length).toBeGreaterThan(0);
    }
    expect(new Set(Object.values(healthLook).map((l) => l.icon)).size).toBe(4);
  });
  it('worstHealth and isSeverity', () => {
    expect(worstHealth('ok', 'degraded')).toBe('degraded');
    expect(worstHealth('down', 'errors')).toBe('down');
    expect(isSeverity('major')).toBe(true);
    expect(isSeverity('bogus')).toBe(false);
    expect(isSeverity(undefined)).toBe(false);
  });
});

describe('lifecycleLook()', () => {
  it('says CLEARED for an open or acknowledged finding no longer observed, the lifecycle state otherwise', () => {
    expect(lifecycleLook('open', 1000).label).toBe('CLEARED');
    expect(lifecycleLook('acknowledged', 1000).label).toBe('CLEARED');
    expect(lifecycleLook('open', null).label).toBe('OPEN');
    expect(lifecycleLook('resolved', 1000).label).toBe('RESOLVED');
  });
});
