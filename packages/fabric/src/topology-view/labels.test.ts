import { describe, expect, it } from 'vitest';
import { fitLabelLines, fitTurnedLabel, GLYPH_PX, sharedPrefix, splitName } from './labels.ts';

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

describe('splitName()', () => {
  it('splits after the separator nearest the middle, keeping it on the first line', () => {
    expect(splitName('spine-p1-01')).toEqual(['spine-', 'p1-01']);
    expect(splitName('dgx-0042 mlx5_3')).toEqual(['dgx-0042', 'mlx5_3']);
    expect(splitName('MQM9700')).toEqual(['MQM9', '700']);
    expect(splitName('x')).toBeNull();
  });
});

describe('fitLabelLines()', () => {
  const px = (chars: number, fontPx = 11) => (chars * GLYPH_PX * fontPx) / 11 + 1;
  it('keeps the name on one line at 11 px when it fits', () => {
    expect(fitLabelLines('spine-p1-05', px(11), 28)).toEqual({ lines: ['spine-p1-05'], fontPx: 11, lineHeight: 13 });
  });
  it('wraps to two lines, then shrinks the font, and never shows part of a name', () => {
    expect(fitLabelLines('spine-p1-05', px(6), 28)).toEqual({ lines: ['spine-', 'p1-05'], fontPx: 11, lineHeight: 13 });
    // Too low for two 11 px lines: one smaller line if it fits.
    expect(fitLabelLines('spine-p1-05', px(11, 9), 12)).toMatchObject({ lines: ['spine-p1-05'], fontPx: 9 });
    // A host's HCA on two lines at the space between host and device.
    expect(fitLabelLines('dgx-0042 mlx5_3', px(8, 9), 24)).toMatchObject({ lines: ['dgx-0042', 'mlx5_3'], fontPx: 9 });
    for (const name of [...SPINES, ...LEAVES])
      for (const w of [10, 20, 30, 40, 60, 80])
        for (const h of [8, 14, 28]) {
          const f = fitLabelLines(name, w, h);
          if (f) expect(f.lines.join('')).toBe(name);
        }
  });
  it('is null when even two 8 px lines do not fit: no name rather than a cut one', () => {
    expect(fitLabelLines('spine-p1-05', px(3, 8), 28)).toBeNull();
    expect(fitLabelLines('spine-p1-05', px(11), 6)).toBeNull();
  });
});

describe('fitTurnedLabel()', () => {
  it('turns the whole name below a narrow box, in the largest font that fits the room', () => {
    // A zoomed-out spine box 40 px wide, 150 px to the leaf row: 11 px.
    expect(fitTurnedLabel('spine-p1-01', 40, 150)).toEqual({ fontPx: 11, lineHeight: 13 });
    // 60 px of room: 11 names of 11 px glyphs need 68 px; 9 px ones 56.
    expect(fitTurnedLabel('spine-p1-01', 40, 60)).toEqual({ fontPx: 9, lineHeight: 11 });
  });
  it('is null when the line is thicker than the box or the room too short: never a part of the name', () => {
    expect(fitTurnedLabel('spine-p1-01', 9, 150)).toBeNull();
    expect(fitTurnedLabel('spine-p1-01', 40, 40)).toBeNull();
  });
});
