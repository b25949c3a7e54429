import { describe, expect, it } from 'vitest';
import { GuidTable } from './guids.ts';

const bytes = (s: string): Uint8Array => Buffer.from(`${s},`);

describe('GuidTable', () => {
  it('gives one canonical string per GUID, from text or bytes, whatever the case', () => {
    const t = new GuidTable();
    const a = t.getBytes(bytes('0xB0CF0E0300E5B940'), 0, 18);
    expect(a).toBe('0xb0cf0e0300e5b940');
    expect(t.get('0xb0cf0e0300e5b940')).toBe(a);
    expect(t.getBytes(bytes('0xb0cf0e0300e5b941'), 0, 18)).toBe('0xb0cf0e0300e5b941');
    // The previous GUID's digits are remembered: the same bytes again, then another GUID.
    expect(t.getBytes(bytes('0xb0cf0e0300e5b941'), 0, 18)).toBe('0xb0cf0e0300e5b941');
    expect(t.getBytes(bytes('0xb0cf0e0300e5b940'), 0, 18)).toBe(a);
  });

  it('refuses a non-hex digit in either half and the all-zero placeholder', () => {
    const t = new GuidTable();
    expect(t.getBytes(bytes('0xb0cf0g0300e5b940'), 0, 18)).toBeUndefined();
    expect(t.getBytes(bytes('0xb0cf0e0300e5b94z'), 0, 18)).toBeUndefined();
    expect(t.getBytes(bytes('0x b0cf0e0300e5b94'), 0, 18)).toBeUndefined();
    expect(t.getBytes(bytes('0x0000000000000000'), 0, 18)).toBeUndefined();
    // Other lengths go through the text normaliser: `0x2c9` is the GUID 0x00000000000002c9.
    expect(t.getBytes(bytes('0x2c9'), 0, 5)).toBe('0x00000000000002c9');
  });

  it('keeps thousands of GUIDs apart across table growth', () => {
    const t = new GuidTable();
    const guids = Array.from({ length: 20_000 }, (_, i) => `0x5c2573030${(i * 7919).toString(16).padStart(7, '0')}`);
    const got = guids.map((g) => t.getBytes(bytes(g), 0, 18));
    expect(got).toEqual(guids);
    expect(guids.map((g) => t.get(g)).every((g, i) => g === got[i])).toBe(true);
  });
});
