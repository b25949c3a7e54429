/**
 * Suggestions for the findings page's kind filter. The API matches a kind or a family of kinds
 * (`link-degraded` finds `link-degraded-width` and `-speed`; `counter-rate` every
 * `counter-rate:<counter>`), so the list offers both.
 */

/** Families of the rules' kinds (packages/fabric): each matches two or more kinds. */
export const KIND_FAMILIES: readonly string[] = [
  'counter-rate',
  'counter-saturated',
  'link-degraded',
  'nccl',
  'sm',
  'topology',
];

/** The kinds of the rows on screen, their families, and the known families; sorted, each once. */
export function kindSuggestions(rows: readonly { kind: string }[]): string[] {
  const out = new Set(KIND_FAMILIES);
  for (const { kind } of rows) {
    out.add(kind);
    const colon = kind.indexOf(':');
    if (colon > 0) out.add(kind.slice(0, colon));
  }
  return [...out].sort();
}
