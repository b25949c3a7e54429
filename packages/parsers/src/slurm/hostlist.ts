/**
 * Slurm hostlist expressions as squeue, sinfo and scontrol print them: `dgx-[0001-0004,0007]`,
 * `gpu[1-2]-ib,login1`, `rack[1-2]-n[01-02]`. Expansion keeps each range's zero padding
 * (`[0008-0011]` gives `dgx-0008` .. `dgx-0011`, as `scontrol show hostnames` does) and
 * expands several brackets in one name as a product, left bracket outermost.
 */
import { ParseError } from '../common/parse-error.ts';

/** An expression larger than this is refused: a typo like `[1-99999999]` must not eat memory. */
export const MAX_HOSTLIST_HOSTS = 1_000_000;

const FORMAT = 'slurm-hostlist';

/** Splits on commas that are outside brackets. */
function topLevelItems(expr: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    if (depth < 0 || depth > 1) throw new ParseError({ format: FORMAT, reason: 'unbalanced brackets', text: expr });
    if (c === ',' && depth === 0) {
      items.push(expr.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw new ParseError({ format: FORMAT, reason: 'unbalanced brackets', text: expr });
  items.push(expr.slice(start));
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The values of one bracket body, `0001-0004,0007`, as padded strings. */
function bracketValues(body: string, expr: string): string[] {
  const out: string[] = [];
  for (const part of body.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new ParseError({ format: FORMAT, reason: `bad range "${part}"`, text: expr });
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) throw new ParseError({ format: FORMAT, reason: `range "${part}" runs backwards`, text: expr });
    if (hi - lo + 1 > MAX_HOSTLIST_HOSTS)
      throw new ParseError({ format: FORMAT, reason: `range "${part}" is too large`, text: expr });
    const width = m[1]!.length;
    for (let v = lo; v <= hi; v++) out.push(String(v).padStart(width, '0'));
  }
  return out;
}

/** One item without top-level commas, e.g. `rack[1-2]-n[01-02]`. */
function expandItem(item: string, expr: string, budget: number): string[] {
  let names = [''];
  let rest = item;
  while (rest.length > 0) {
    const open = rest.indexOf('[');
    if (open < 0) {
      names = names.map((n) => n + rest);
      break;
    }
    const close = rest.indexOf(']', open);
    const prefix = rest.slice(0, open);
    const values = bracketValues(rest.slice(open + 1, close), expr);
    if (names.length * values.length > budget)
      throw new ParseError({ format: FORMAT, reason: `expands to more than ${MAX_HOSTLIST_HOSTS} hosts`, text: expr });
    names = names.flatMap((n) => values.map((v) => n + prefix + v));
    rest = rest.slice(close + 1);
  }
  return names;
}

/**
 * Expands a hostlist expression into host names, in order, duplicates kept out. An empty
 * string (a pending job's `nodes`) is no hosts. Throws a ParseError on unbalanced brackets,
 * a bad or backwards range, or more than {@link MAX_HOSTLIST_HOSTS} hosts.
 */
export function expandHostlist(expr: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of topLevelItems(expr.trim())) {
    for (const h of expandItem(item, expr, MAX_HOSTLIST_HOSTS - out.length)) {
      if (seen.has(h)) continue;
      seen.add(h);
      out.push(h);
    }
  }
  return out;
}
