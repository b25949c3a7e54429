/**
 * Switch labels that fit their boxes. Zoomed out, a box is a few dozen pixels wide: cutting the
 * name at the end left every spine reading `spine-…`. The part that tells the switches of a tier
 * apart is after what they all share, so that part is kept.
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

/**
 * The text drawn in a box `px` wide: the full name when it fits, else the part after the tier's
 * shared prefix (`p1-01`), else that part's end (`…-01`, the digits that differ last).
 */
export function fitLabel(name: string, prefix: string, px: number): string {
  const max = Math.floor(px / GLYPH_PX);
  if (name.length <= max) return name;
  const short = prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (short.length <= max) return short;
  return max <= 1 ? '' : `…${short.slice(short.length - (max - 1))}`;
}
