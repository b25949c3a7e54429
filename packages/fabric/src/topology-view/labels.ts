/**
 * Node labels that fit their boxes whole. Zoomed out, a box is a few dozen pixels wide: cutting
 * the name (`spine-…`, then `…t-01`) left several switches reading alike, so a name is drawn
 * whole, on two lines and in a smaller font when it must, or not at all at that zoom.
 */

/** Approximate width of one 11px system-ui glyph (measureText per node per frame is slow). */
export const GLYPH_PX = 6.2;

/**
 * The prefix every name shares, cut back to its last separator (`-`, `_`, `.`, space), so it
 * never splits a word: `spine-p1-01`, `spine-p2-04` share `spine-p`, of which `spine-` goes.
 */
export function sharedPrefix(names: readonly string[]): string {
  if (names.length < 2) return '';
  let p = names[0]!;
  for (const n of names) {
    let i = 0;
    while (i < p.length && i < n.length && p[i] === n[i]) i++;
    p = p.slice(0, i);
    if (!p) return '';
  }
  const cut = Math.max(p.lastIndexOf('-'), p.lastIndexOf('_'), p.lastIndexOf('.'), p.lastIndexOf(' '));
  // Never all of a name: with `sw-` and `sw-2`, stripping `sw-` would leave one box blank.
  return cut >= 0 && names.every((n) => n.length > cut + 1) ? p.slice(0, cut + 1) : '';
}

/** Font sizes a label may use, largest first: below 8 px a name is no longer readable. */
export const LABEL_FONTS_PX = [11, 10, 9, 8] as const;

/** A label laid out in its box: whole lines of one font size, at most two. */
export interface FittedLabel {
  lines: string[];
  fontPx: number;
  /** Line pitch in px. */
  lineHeight: number;
}

/** Glyph width at a font size (GLYPH_PX is the 11 px one). */
const glyphAt = (fontPx: number) => (GLYPH_PX * fontPx) / 11;

/**
 * The two-line split of a name: after the separator (`-`, `_`, `.`, space) nearest its middle,
 * the separator kept on the first line (`lab-leaf-` / `01`; a space dropped), or in the middle
 * when it has none. Null for a name too short to split.
 */
export function splitName(name: string): [string, string] | null {
  if (name.length < 2) return null;
  let best = -1;
  for (let i = 1; i < name.length - 1; i++)
    if (
      '-_. '.includes(name[i]!) &&
      (best < 0 || Math.abs(i + 0.5 - name.length / 2) < Math.abs(best + 0.5 - name.length / 2))
    )
      best = i;
  if (best < 0) {
    const mid = Math.ceil(name.length / 2);
    return [name.slice(0, mid), name.slice(mid)];
  }
  return [name.slice(0, best + (name[best] === ' ' ? 0 : 1)), name.slice(best + 1)];
}

/**
 * The whole name in a box `w` x `h` px, never cut: one line, else two lines split at a
 * separator, at 11 px and then smaller down to 8 px. Null when even that does not fit: the box
 * then shows no name (zoom in, or select it) rather than a part of one (`…t-01` read as any
 * of the `-01` switches).
 */
export function fitLabelLines(name: string, w: number, h: number): FittedLabel | null {
  if (!name) return null;
  const split = splitName(name);
  for (const fontPx of LABEL_FONTS_PX) {
    const lineHeight = Math.ceil(fontPx * 1.15);
    const max = Math.floor(w / glyphAt(fontPx));
    if (h >= lineHeight && name.length <= max) return { lines: [name], fontPx, lineHeight };
    if (split && h >= 2 * lineHeight && split.every((l) => l.length <= max))
      return { lines: split, fontPx, lineHeight };
  }
  return null;
}

/**
 * A name too wide for its box, drawn whole beside it, turned 90° (reading upwards) in the room
 * below it: the largest font whose line fits `room` px of length and is no thicker than `pitch`
 * px (the box's width, so neighbours' labels never overlap). Null when even 8 px does not fit.
 */
export function fitTurnedLabel(name: string, pitch: number, room: number): Omit<FittedLabel, 'lines'> | null {
  if (!name) return null;
  for (const fontPx of LABEL_FONTS_PX) {
    const lineHeight = Math.ceil(fontPx * 1.15);
    if (lineHeight <= pitch && name.length * glyphAt(fontPx) <= room) return { fontPx, lineHeight };
  }
  return null;
}
