import { describe, expect, it } from 'vitest';
import { KIND_FAMILIES, kindSuggestions } from './findings.ts';

describe('kindSuggestions()', () => {
  it('offers the placeholder’s family, the kinds on screen and their counter families', () => {
    const s = kindSuggestions([
      { kind: 'symbol-errors' },
      { kind: 'counter-rate:PortRcvErrors' },
      { kind: 'symbol-errors' },
    ]);
    expect(s).toContain('link-degraded');
    expect(s).toContain('symbol-errors');
    expect(s).toContain('counter-rate:PortRcvErrors');
    expect(s.filter((k) => k === 'counter-rate')).toHaveLength(1);
    expect(s).toEqual([...s].sort());
    expect(kindSuggestions([])).toEqual([...KIND_FAMILIES].sort());
  });
});
