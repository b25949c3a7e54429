import { describe, expect, it } from 'vitest';
import { fitLabel, GLYPH_PX, sharedPrefix } from './labels.ts';

// The lab's names (packages/lab generator): what read `spine-…` on every spine box before.
const SPINES = ['spine-p1-01', 'spine-p1-02', 'spine-p2-01', 'spine-p2-04'];
const LEAVES = ['leaf-r0-01', 'leaf-r1-01', 'leaf-r8-01'];

describe('sharedPrefix()', () => {
  it('is the common start of a tier’s names, cut at a separator', () => {
    expect(sharedPrefix(SPINES)).toBe('spine-');
    expect(sharedPrefix(LEAVES)).toBe('leaf-');
    expect(sharedPrefix(['core-01', 'core-02'])).toBe('core-');
    expect(sharedPrefix(['ib-sw-a1', 'ib-sw-b2'])).toBe('ib-sw-');
  });
  it('is empty for one name, no shared word, or when a name would vanish', () => {
    expect(sharedPrefix(['spine-p1-01'])).toBe('');
    expect(sharedPrefix(['spine-01', 'leaf-01'])).toBe('');
    expect(sharedPrefix(['leaf-1', 'leaf-1b'])).toBe('leaf-');
    expect(sharedPrefix(['sw-', 'sw-2'])).toBe('');
  });
});

describe('fitLabel()', () => {
  const px = (chars: number) => chars * GLYPH_PX + 1;
  it('keeps the name when it fits, else the part that tells the switches apart', () => {
    expect(fitLabel('spine-p1-05', 'spine-', px(11))).toBe('spine-p1-05');
    expect(fitLabel('spine-p1-05', 'spine-', px(8))).toBe('p1-05');
    const shown = SPINES.map((n) => fitLabel(n, sharedPrefix(SPINES), px(6)));
    expect(new Set(shown).size).toBe(SPINES.length);
  });
  it('keeps the end of a long name when even that does not fit', () => {
    expect(fitLabel('spine-p1-05', 'spine-', px(4))).toBe('…-05');
    expect(fitLabel('dgx-0042 mlx5_3', '', px(6))).toBe('…lx5_3');
    expect(fitLabel('spine-p1-05', 'spine-', px(1))).toBe('');
  });
});
