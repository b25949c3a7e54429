/**
 * The line grammar of `ibqueryerrors` output, shared by the record parser (ibqueryerrors.ts)
 * and the columnar one (ibqueryerrors-table.ts) so that both read exactly the same lines the
 * same way: header and footer regexes, the `[Name == 123 (4.5KB)]` item scanner, the `##`
 * footer. See ibqueryerrors.ts for the output itself.
 */
import type { LineContext } from '../common/line-context.ts';

/** Counts that ibqueryerrors prints below its port lines (`## Summary: ...`). */
export interface IbqeSummary {
  nodesChecked: number;
  badNodes: number;
  portsChecked?: number;
  badPorts?: number;
  /** From `##          N PMA query failures`; 0 when the line is absent. */
  pmaQueryFailures: number;
  /** `## Thresholds:` entries; empty = all thresholds 0. */
  thresholds: Record<string, bigint>;
  /** `## Suppressed:` counter names. */
  suppressed: string[];
}

/**
 * The counters ibqueryerrors checks in error mode (infiniband-diags 44, `ibqueryerrors.c`), in
 * the order it prints them. With all thresholds at 0, a port it does not list had every one of
 * them at 0.
 */
export const IBQE_ERROR_MODE_COUNTERS = [
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'LinkDownedCounter',
  'PortRcvErrors',
  'PortRcvRemotePhysicalErrors',
  'PortRcvSwitchRelayErrors',
  'PortXmitDiscards',
  'PortXmitConstraintErrors',
  'PortRcvConstraintErrors',
  'LocalLinkIntegrityErrors',
  'ExcessiveBufferOverrunErrors',
  'VL15Dropped',
  'PortXmitWait',
] as const;

export const ERR_HDR = /^Errors for (?:(0x[0-9a-fA-F]+) )?"(.*)"\s*$/;
export const DATA_HDR = /^Data Counters for (0x[0-9a-fA-F]+) "(.*)"\s*$/;
export const PORT_RE = /^\s+GUID (\S+) port (\d+|ALL):(.*)$/;
export const LINK_INFO_RE = /^\s+Link info:/;
const ITEM_RE = /\[(\w+) == (\d+)(?: \([^)]*\))?\]/g;
const SUMMARY1 = /^## Summary: (\d+) nodes checked, (\d+) bad nodes found\s*$/;
const SUMMARY2 = /^##\s+(\d+) ports checked, (\d+) ports have errors beyond threshold\s*$/;
const PMA_FAIL = /^##\s+(\d+) PMA query failures\s*$/;

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * What the last successful {@link scanItem} found. One scratch record instead of an object per
 * item: a 10k-GPU `--counters` output holds ~500k items.
 */
export const scannedItem = { name: '', digits: 0, digitsEnd: 0, value: 0 };

/**
 * One `Name == 123]` or `Name == 123 (4.5KB)]` item (ITEM_RE's grammar) starting after its
 * `[` at `from`: fills {@link scannedItem} (`value` is the digits as a double, exact up to
 * 2^53) and returns the index after `]`, or -1 when it is not one.
 *
 * Port lines repeat the same names in the same order: re-using the previous line's k-th name
 * (`names[k]`) saves cutting it out and looking it up again.
 */
export function scanItem(line: string, from: number, names: string[], k: number): number {
  let name: string | undefined = names[k];
  let i = from;
  if (name !== undefined && line.startsWith(name, from) && line.charCodeAt(from + name.length) === 32) {
    i = from + name.length;
  } else {
    while (i < line.length && isWordChar(line.charCodeAt(i))) i++;
    if (i === from) return -1;
    name = undefined;
  }
  if (!line.startsWith(' == ', i)) return -1;
  const nameEnd = i;
  i += 4;
  const digits = i;
  let v = 0;
  for (;;) {
    const d = line.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) break;
    v = v * 10 + d;
    i++;
  }
  if (i === digits) return -1;
  const digitsEnd = i;
  if (line.charCodeAt(i) === 32 && line.charCodeAt(i + 1) === 40 /* ( */) {
    const close = line.indexOf(')', i + 2);
    if (close === -1) return -1;
    i = close + 1;
  }
  if (line.charCodeAt(i) !== 93 /* ] */) return -1;
  if (name === undefined) names[k] = name = line.slice(from, nameEnd);
  scannedItem.name = name;
  scannedItem.digits = digits;
  scannedItem.digitsEnd = digitsEnd;
  scannedItem.value = v;
  return i + 1;
}

/**
 * The items of a port line that the hand-written scanner did not take (tabs, odd spacing),
 * the regex way: name -> value. Warns, as the fast path does, when a `[` opens no item.
 */
export function regexItems(rest: string, line: string, ctx: LineContext): Record<string, bigint> {
  const counters: Record<string, bigint> = {};
  let consumed = 0;
  for (const it of rest.matchAll(ITEM_RE)) {
    counters[it[1]] = BigInt(it[2]);
    consumed++;
  }
  warnItems(ctx, line, (rest.match(/\[/g) ?? []).length, consumed);
  return counters;
}

/** The warning for `[` that opened no readable item (a line cut mid-item). */
function warnItems(ctx: LineContext, line: string, opened: number, consumed: number): void {
  if (opened !== consumed) ctx.unknown(line, `${opened - consumed} counter item(s) not understood (output cut?)`);
}

/**
 * The items of a port line from `from` on, as matchAll(ITEM_RE) finds them: an item is looked
 * for at each `[` outside the items already taken, and every `[` counts as an opened item.
 * Each item read is in {@link scannedItem} when `take(k)` (k = items taken so far) is called;
 * `take` returns false for a value it cannot hold, which then counts as not understood.
 * `names` is {@link scanItem}'s. Warns once for the line if any `[` opened no item taken.
 */
export function scanItems(
  ctx: LineContext,
  line: string,
  from: number,
  names: string[],
  take: (k: number) => boolean,
): void {
  let opened = 0;
  let consumed = 0;
  let taken = 0;
  for (let b = line.indexOf('[', from); b !== -1; b = line.indexOf('[', b + 1)) {
    opened++;
    if (b < taken) continue;
    const end = scanItem(line, b + 1, names, consumed);
    if (end === -1) continue;
    taken = end;
    if (take(consumed)) consumed++;
  }
  warnItems(ctx, line, opened, consumed);
}

/** One `##` footer line; returns the summary, created by the `## Summary:` line. */
export function summaryLine(line: string, summary: IbqeSummary | undefined, ctx: LineContext): IbqeSummary | undefined {
  let m: RegExpExecArray | null;
  if ((m = SUMMARY1.exec(line))) {
    return { nodesChecked: Number(m[1]), badNodes: Number(m[2]), pmaQueryFailures: 0, thresholds: {}, suppressed: [] };
  }
  if (!summary) {
    ctx.unknown(line, 'footer line before "## Summary"');
    return summary;
  }
  if ((m = SUMMARY2.exec(line))) {
    summary.portsChecked = Number(m[1]);
    summary.badPorts = Number(m[2]);
  } else if ((m = PMA_FAIL.exec(line))) {
    summary.pmaQueryFailures = Number(m[1]);
  } else if (line.startsWith('## Thresholds:')) {
    // "## Thresholds: [SymbolErrorCounter = 200][PortXmitWait = 1000000]" (no separator)
    for (const t of line.matchAll(/\[(\w+) = (\d+)\]/g)) summary.thresholds[t[1]] = BigInt(t[2]);
  } else if (line.startsWith('## Suppressed:')) {
    summary.suppressed = line.slice('## Suppressed:'.length).trim().split(/\s+/).filter(Boolean);
  } else ctx.unknown(line);
  return summary;
}

/**
 * `   GUID 0x... port 17:` at the start of a port line, read by hand (PORT_RE's grammar for
 * lines indented with spaces). Returns the index of the `:` and fills `portLineHead`, or -1
 * when the line is not exactly in that form (the regex path then decides).
 */
export const portLineHead = { guidStart: 0, guidEnd: 0, port: 0 as number | 'ALL' };
export function scanPortHead(line: string): number {
  let i = 1;
  while (line.charCodeAt(i) === 32) i++;
  if (!line.startsWith('GUID ', i)) return -1;
  const guidEnd = line.indexOf(' ', i + 5);
  if (guidEnd <= i + 5 || !line.startsWith(' port ', guidEnd)) return -1;
  const colon = line.indexOf(':', guidEnd + 6);
  if (colon === -1) return -1;
  let port: number | 'ALL';
  if (colon - guidEnd === 9 && line.startsWith('ALL', guidEnd + 6)) port = 'ALL';
  else {
    port = 0;
    for (let j = guidEnd + 6; j < colon; j++) {
      const d = line.charCodeAt(j) - 48;
      if (d < 0 || d > 9) return -1;
      port = port * 10 + d;
    }
    if (colon === guidEnd + 6 || colon - guidEnd - 6 > 15) return -1;
  }
  portLineHead.guidStart = i + 5;
  portLineHead.guidEnd = guidEnd;
  portLineHead.port = port;
  return colon;
}
