import { COUNTER_SPECS, maxOfWidth, SIGNED_64, usable } from './counter-specs.ts';
import type { CounterTable } from './counter-table.ts';
import type { Evidence, Severity, Verdict } from './findings.ts';
import type { CounterName, PortCounters } from './types.ts';

/**
 * One snapshot is evidence. A port's counters read for the first time (the first sweep, the
 * first ibdiagnet import, a port new to the fabric) are totals since they were last cleared, at
 * an unknown time: not a rate, and no sign of whether errors still happen. They still say two
 * things: a counter at its maximum is pegged (saturated: nothing more can be learnt from it until
 * it is cleared), and a non-zero error count means the link had errors at some point. The
 * playbook's own first step is that: run ibdiagnet once and look for ports with an elevated
 * SymbolErrorCounter in its PM file. Rates take over from the next snapshot.
 */

/** Kind of the "errors since the last clear" finding (one per port). */
export const LIFETIME_KIND = 'errors-since-clear';
/** Kind prefix of the "counter saturated" findings (one per port and counter), from either path. */
export const SATURATED_KIND = 'counter-saturated:';

/**
 * Counters whose count points at the physical link (cable, transceiver, port cage): a non-zero
 * lifetime count of one of them makes an `errors-since-clear` finding.
 */
export const LINK_ERROR_COUNTERS: readonly CounterName[] = [
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'PortRcvErrors',
  'PortRcvRemotePhysicalErrors',
  'LocalLinkIntegrityErrors',
  'ExcessiveBufferOverrunErrors',
];

/**
 * Listed beside the link counters but never a finding alone: every reboot or reseat of either
 * end adds to LinkDownedCounter (the real NDR run has 264 of 541 ports at 10-49), and
 * PortXmitDiscards counts congestion and dead destinations as much as cables.
 */
const CONTEXT_COUNTERS: readonly CounterName[] = ['LinkDownedCounter', 'PortXmitDiscards'];

/** Counters whose saturation is a finding (it hides a rate the rules need). */
export const SATURATION_WATCHED: readonly CounterName[] = [...LINK_ERROR_COUNTERS, ...CONTEXT_COUNTERS];

/**
 * Saturation severity: a pegged link-layer counter (65,535 symbol errors, 255 retrains or link
 * downs, 65,535 receive errors, 15 integrity errors) is a cable worth checking whatever its age:
 * major. Discards, remote physical errors (another link's fault, forwarded) and buffer overruns
 * (credits, not cables) stay minor.
 */
export function saturationSeverity(counter: CounterName): Severity {
  return MAJOR_WHEN_SATURATED.has(counter) ? 'major' : 'minor';
}
const MAJOR_WHEN_SATURATED = new Set([
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'LinkDownedCounter',
  'PortRcvErrors',
  'LocalLinkIntegrityErrors',
]);

/** How to clear a port's counters, for the finding and the worklist: the tools that do it. */
export function clearCountersHow(lid: number | undefined, portNum: number): string {
  // LID 0 is reserved (IBTA: no unicast LID is 0): a switch's external ports carry it in
  // ibdiagnet's PORTS section when the LID was not resolved to port 0's, so it names no port.
  const one = lid === undefined || lid < 1 ? `perfquery -R <LID> ${portNum}` : `perfquery -R ${lid} ${portNum}`;
  const fabric = '`ibdiagnet --pc` or `ibclearcounters`';
  return `clear the counters (\`${one}\`; the whole fabric: ${fabric}) and measure again`;
}

/** A counter's lifetime reading: the larger of the classic column and a 64-bit twin that counts. */
interface Reading {
  counter: CounterName;
  source: CounterName;
  value: bigint;
  widthBits: number;
  saturated: boolean;
}

/**
 * Reads one counter of a first snapshot. The classic column and its 64-bit twin may disagree:
 * ConnectX-7 HCAs in the real NDR run report `SymbolErrorCounter` 67 with
 * `SymbolErrorCounterExt` 0 (the twin is not maintained), and one reports `PortRcvErrorsExt`
 * 18446744073709551576 (2^64 - 40, not a count). So the larger of the classic value and a twin
 * below 2^63 is the count; the classic column at its maximum with no larger twin is saturated.
 */
function readLifetime(rec: PortCounters, counter: CounterName): Reading | undefined {
  const spec = COUNTER_SPECS.get(counter);
  if (!spec) return undefined;
  const c = rec.counters;
  const classic = c[counter];
  const width = rec.extended ? 64 : spec.widthBits;
  let best: Reading | undefined;
  if (usable(classic) && classic < SIGNED_64)
    best = { counter, source: counter, value: classic, widthBits: width, saturated: classic === maxOfWidth(width) };
  for (const ext of spec.extNames) {
    const v = c[ext];
    if (!usable(v) || v >= SIGNED_64) continue;
    if (!best || v > best.value) best = { counter, source: ext, value: v, widthBits: 64, saturated: false };
  }
  return best;
}

/** Context of {@link evaluateLifetimeCounters}. */
export interface LifetimeContext {
  /** Display name of a port, e.g. `leaf-01 port 3`; default `<guid> port N`. */
  portName?: (nodeGuid: string, portNum: number) => string;
  /** The LID to address a port with (perfquery), when known. */
  lidOf?: (nodeGuid: string, portNum: number) => number | undefined;
}

const WHAT_IT_TELLS =
  'a count since the counters were last cleared, at an unknown time: not a rate, and it cannot say whether ' +
  'the errors are still happening; the next snapshot gives the rate';

/**
 * Verdicts on the first snapshot of each port in `records` (ports without an earlier sample):
 * - `counter-saturated:<counter>` per pegged counter of {@link SATURATION_WATCHED}, severity
 *   {@link saturationSeverity}: clear the counters and measure again, with how.
 * - `errors-since-clear` per port with a non-zero, unsaturated {@link LINK_ERROR_COUNTERS} count,
 *   minor: the counts (with LinkDownedCounter and PortXmitDiscards beside them) and what they
 *   cannot tell. A port whose only counts are link downs or discards gets none.
 * No grace period: these errors happened before ibwatch ever saw the link.
 */
export function evaluateLifetimeCounters(records: readonly PortCounters[], ctx: LifetimeContext = {}): Verdict[] {
  const name = ctx.portName ?? ((g: string, n: number) => `${g} port ${n}`);
  const out: Verdict[] = [];
  for (const rec of records) {
    const subject = { kind: 'port' as const, port: { nodeGuid: rec.nodeGuid, portNum: rec.portNum } };
    const pname = name(rec.nodeGuid, rec.portNum);
    const how = clearCountersHow(ctx.lidOf?.(rec.nodeGuid, rec.portNum), rec.portNum);
    const counts: Reading[] = [];
    let linkErrors = false;
    for (const counter of SATURATION_WATCHED) {
      const r = readLifetime(rec, counter);
      if (!r || r.value === 0n) continue;
      if (r.saturated) {
        out.push({
          kind: `${SATURATED_KIND}${counter}`,
          severity: saturationSeverity(counter),
          subject,
          title: `${counter} saturated on ${pname} (${r.value}, its maximum): ${how}`,
          short: `${counter} saturated: clear counters and measure again`,
          evidence: {
            counter,
            source: r.source,
            current: r.value.toString(),
            widthBits: r.widthBits,
            firstSnapshot: true,
            note: `at least ${r.value} since the last clear; rate unknown until the counters are cleared`,
          },
        });
        continue;
      }
      counts.push(r);
      if (LINK_ERROR_COUNTERS.includes(counter)) linkErrors = true;
    }
    if (!linkErrors) continue;
    const list = counts.map((r) => `${r.counter} ${r.value}`).join(', ');
    const counters: Evidence = {};
    for (const r of counts) counters[r.counter] = r.value.toString();
    out.push({
      kind: LIFETIME_KIND,
      severity: 'minor',
      subject,
      title: `Errors since the last clear on ${pname}: ${list} (no rate yet: one snapshot)`,
      short: `since last clear: ${list} (no rate yet)`,
      evidence: { counters, firstSnapshot: true, note: WHAT_IT_TELLS, action: how },
    });
  }
  return out;
}

/**
 * Rows of `table` (among `rows`) that can make a verdict: a non-zero link error counter (classic
 * or twin), or a link-down or discard counter pegged at its classic maximum. Only those become
 * records: at 45k GPUs a first sweep has 272k rows, and about half carry link downs since boot.
 * Column by column over the typed arrays.
 */
export function rowsWithCounts(table: CounterTable, rows: readonly number[]): number[] {
  const linkCols = new Set<string>();
  for (const c of LINK_ERROR_COUNTERS) for (const n of [c, ...(COUNTER_SPECS.get(c)?.extNames ?? [])]) linkCols.add(n);
  const hit = new Uint8Array(table.rows);
  for (const col of table.columns) {
    const { hi, lo, absent } = col;
    if (linkCols.has(col.name)) {
      for (const r of rows) if ((hi[r]! | lo[r]!) !== 0 && absent?.[r] !== 1) hit[r] = 1;
    } else if (CONTEXT_COUNTERS.includes(col.name)) {
      const max = 2 ** COUNTER_SPECS.get(col.name)!.widthBits - 1;
      for (const r of rows) if (hi[r] === 0 && lo[r] === max && absent?.[r] !== 1) hit[r] = 1;
    }
  }
  return rows.filter((r) => hit[r] === 1);
}
