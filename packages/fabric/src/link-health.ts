import type { PortDelta } from './counters.ts';
import { linkKey, portKey, type Severity, type Verdict } from './findings.ts';
import { PortIndex } from './port-index.ts';
import { nominalGbps, SPEED_RANK, WIDTH_LANES } from './rates.ts';
import { resolveThresholds, type DeepPartial, type HealthThresholds } from './thresholds.ts';
import type { ExpectedRate } from './api.ts';
import type { FabricLink, FabricPort, FabricSnapshot, LinkSpeed, LinkWidth, PortRef } from './types.ts';

export interface LinkHealthOptions {
  /** The previous scan, for "was Active, now Down/Polling". */
  previous?: FabricSnapshot;
  /**
   * Every end of `previous.links` was Active (the collector's known graph: a link is only
   * stored once both ends were up), so `previous.ports` is not read: the same verdicts as listing
   * each end as an Active port, without ~270k port records at 45k GPUs.
   */
  previousLinkEndsActive?: boolean;
  /**
   * Expected rate of fabric links, e.g. `{ width: '4X', speed: 'NDR' }` (the lab runs 4X HDR); either part
   * may be left out.
   */
  expected?: Partial<ExpectedRate>;
  /** Display name of a node; default its NodeDescription, else the GUID. */
  nodeName?: (guid: string) => string | undefined;
  /**
   * `current.ports` by GUID and number, when the caller has indexed them already and no port is
   * listed twice: not indexed again (293k ports at 45k GPUs, ~0.2 s of a first import).
   */
  currentPorts?: PortIndex<FabricPort>;
}

/** Name `desc port N` for a port, from a node lookup. */
export function portLabel(ref: PortRef, name: (guid: string) => string | undefined): string {
  return `${name(ref.nodeGuid) ?? ref.nodeGuid} port ${ref.portNum}`;
}

function nameFn(s: FabricSnapshot, custom?: (g: string) => string | undefined): (g: string) => string | undefined {
  // Built on first need: names are only made for verdicts, and a healthy fabric has none.
  let desc: Map<string, string> | undefined;
  const described = (): Map<string, string> => {
    if (desc) return desc;
    desc = new Map();
    for (const n of s.nodes) if (n.description) desc.set(n.guid, n.description);
    return desc;
  };
  return (g) => custom?.(g) ?? described().get(g);
}

/**
 * The highest-ranked value present in both lists (undefined when either is empty or none is
 * shared): the widest width enabled, or the fastest speed supported, at both ends of a link.
 * No Set or array per call: this runs for both ends of all 30k links of a 10k-GPU fabric.
 */
function commonMax<T extends string>(
  a: readonly T[] | undefined,
  b: readonly T[] | undefined,
  rank: Record<T, number>,
): T | undefined {
  if (!a?.length || !b?.length) return undefined;
  let best: T | undefined;
  for (const x of a) if (b.includes(x) && (best === undefined || rank[x] > rank[best])) best = x;
  return best;
}

/** The higher-ranked of two values, either of which may be missing. */
function higher<T extends string>(x: T | undefined, y: T | undefined, rank: Record<T, number>): T | undefined {
  if (x === undefined) return y;
  if (y === undefined) return x;
  return rank[y] > rank[x] ? y : x;
}

function isDown(p: FabricPort | undefined): boolean {
  return p !== undefined && (p.state === 'Down' || p.physState === 'Polling' || p.physState === 'Disabled');
}

/**
 * Per-link verdicts from one scan (plus the previous one):
 * - `link-degraded-width`: active width below the expected width, or below the widest width
 *   *enabled* on both ends. LinkWidthSupported is deliberately ignored: ibsim hard-codes it to
 *   1x|2x|4x|8x|12x, so `iblinkinfo` prints `(Could be 12X )` on every healthy 4X link.
 * - `link-degraded-speed`: active speed below the expected speed, or below the fastest speed
 *   *supported* by both ends (iblinkinfo's "Could be 53.125 Gbps" appears only for real
 *   degradations).
 * - `link-down`: an end is Down/Polling/Disabled that was Active in the previous scan.
 * Severity: width or speed at half or less of the target is major, otherwise minor; a link
 * that went down is major. Both ends are named. Linear in links + ports.
 */
export function evaluateLinks(current: FabricSnapshot, opts: LinkHealthOptions = {}): Verdict[] {
  const ports = opts.currentPorts ?? portsOf(current.ports);
  const name = nameFn(current, opts.nodeName);
  const out: Verdict[] = [];
  for (const l of current.links) {
    const a = ports.get(l.a.nodeGuid, l.a.portNum);
    const b = ports.get(l.b.nodeGuid, l.b.portNum);
    if (!a || !b || a.state !== 'Active' || b.state !== 'Active') continue;
    const w =
      a.widthActive && b.widthActive
        ? WIDTH_LANES[a.widthActive] <= WIDTH_LANES[b.widthActive]
          ? a.widthActive
          : b.widthActive
        : (a.widthActive ?? b.widthActive);
    const s =
      a.speedActive && b.speedActive
        ? SPEED_RANK[a.speedActive] <= SPEED_RANK[b.speedActive]
          ? a.speedActive
          : b.speedActive
        : (a.speedActive ?? b.speedActive);
    if (w) {
      const enabledMax = commonMax(a.widthEnabled, b.widthEnabled, WIDTH_LANES);
      const exp = opts.expected?.width;
      const target = higher(exp, enabledMax, WIDTH_LANES);
      if (target && WIDTH_LANES[w] < WIDTH_LANES[target]) {
        const sev: Severity = WIDTH_LANES[w] * 2 <= WIDTH_LANES[target] ? 'major' : 'minor';
        out.push({
          kind: 'link-degraded-width',
          severity: sev,
          subject: { kind: 'link', a: l.a, b: l.b },
          title: `Link ${ends(l, name)} runs at ${w} instead of ${target}`,
          short: `width ${target}->${w}`,
          evidence: {
            widthActive: w,
            target,
            expected: exp ?? null,
            enabledCommonMax: enabledMax ?? null,
            ...rateEvidence(w, s, target, s),
          },
        });
      }
    }
    if (s) {
      const supMax = commonMax(a.speedSupported, b.speedSupported, SPEED_RANK);
      const exp = opts.expected?.speed;
      const target = higher(exp, supMax, SPEED_RANK);
      if (target && SPEED_RANK[s] < SPEED_RANK[target]) {
        const wNow = w ?? '4X';
        const ratio = nominalGbps(wNow, s) / nominalGbps(wNow, target);
        out.push({
          kind: 'link-degraded-speed',
          severity: ratio <= 0.5 ? 'major' : 'minor',
          subject: { kind: 'link', a: l.a, b: l.b },
          title: `Link ${ends(l, name)} runs at ${s} instead of ${target}`,
          short: `speed ${nominalGbps(wNow, target)}G->${nominalGbps(wNow, s)}G`,
          evidence: {
            speedActive: s,
            target,
            expected: exp ?? null,
            supportedCommonMax: supMax ?? null,
            ...rateEvidence(wNow, s, wNow, target),
          },
        });
      }
    }
  }
  if (opts.previous) out.push(...wentDown(opts.previous, opts.previousLinkEndsActive === true, ports, name));
  return out;
}

/**
 * Both ends' labels: made only for a verdict (labels for every healthy link were most of the
 * loop), and by a function, not a closure per link.
 */
function ends(l: FabricLink, name: (g: string) => string | undefined): string {
  return `${portLabel(l.a, name)} <-> ${portLabel(l.b, name)}`;
}

function rateEvidence(
  w: LinkWidth,
  s: LinkSpeed | undefined,
  tw: LinkWidth,
  ts: LinkSpeed | undefined,
): Record<string, number | null> {
  return { gbpsActive: s ? nominalGbps(w, s) : null, gbpsTarget: ts ? nominalGbps(tw, ts) : null };
}

/**
 * Ports by GUID and number, the last of a duplicate winning (as a Map keyed `guid/port` did):
 * no key string per port, which for the ~270k ports of a 45k-GPU fabric (both scans' ports)
 * was most of this module's time and garbage.
 */
function portsOf(list: readonly FabricPort[]): PortIndex<FabricPort> {
  const ports = new PortIndex<FabricPort>();
  for (const p of list) ports.set(p.nodeGuid, p.portNum, p);
  return ports;
}

function wentDown(
  prev: FabricSnapshot,
  endsActive: boolean,
  curPorts: PortIndex<FabricPort>,
  name: (g: string) => string | undefined,
): Verdict[] {
  const prevPorts = endsActive ? undefined : portsOf(prev.ports);
  const out: Verdict[] = [];
  const seen = new Set<string>();
  const wasUpIsDown = (e: PortRef) =>
    (prevPorts === undefined || prevPorts.get(e.nodeGuid, e.portNum)?.state === 'Active') &&
    isDown(curPorts.get(e.nodeGuid, e.portNum));
  // Links of the previous scan: the current scan may have dropped a down link from LINKS.
  for (const l of prev.links) {
    const downEnd = wasUpIsDown(l.a) ? l.a : wasUpIsDown(l.b) ? l.b : undefined;
    if (!downEnd) continue;
    const k = linkKey(l.a, l.b);
    if (seen.has(k)) continue;
    seen.add(k);
    const p = curPorts.get(downEnd.nodeGuid, downEnd.portNum)!;
    out.push({
      kind: 'link-down',
      severity: 'major',
      subject: { kind: 'link', a: l.a, b: l.b },
      title:
        `Link ${portLabel(l.a, name)} <-> ${portLabel(l.b, name)} went down ` +
        `(${p.state ?? '?'}/${p.physState ?? '?'}; was Active)`,
      short: `link down (${p.physState ?? p.state ?? 'down'})`,
      evidence: {
        end: portKey(downEnd),
        state: p.state ?? null,
        physState: p.physState ?? null,
        previousState: 'Active',
      },
    });
  }
  return out;
}

/** One observed link-down event on a port, for the flap history the collector keeps. */
export interface FlapEvent {
  at: string;
  port: PortRef;
  /** How many downs: the LinkDownedCounter delta, or 1 for a state transition. */
  count: number;
  source: 'LinkDownedCounter' | 'state';
}

/**
 * Flap events of one sweep: LinkDownedCounter increases (from deltas, so lifetime totals of a
 * first snapshot never count) and Active → Down/Polling transitions not already counted by the
 * counter on that port.
 */
export function flapEventsFromSweep(
  deltas: readonly PortDelta[],
  previousPorts: readonly FabricPort[] | undefined,
  currentPorts: readonly FabricPort[],
  at: string,
): FlapEvent[] {
  const out: FlapEvent[] = [];
  const counted = new Set<string>();
  for (const d of deltas) {
    const ld = d.counters.LinkDownedCounter;
    if (ld?.delta !== undefined && ld.delta > 0n) {
      out.push({
        at,
        port: { nodeGuid: d.nodeGuid, portNum: d.portNum },
        count: Number(ld.delta),
        source: 'LinkDownedCounter',
      });
      counted.add(portKey(d));
    }
  }
  if (!previousPorts) return out;
  const prev = new Map<string, FabricPort>();
  for (const p of previousPorts) prev.set(portKey(p), p);
  for (const p of currentPorts) {
    const k = portKey(p);
    if (counted.has(k) || !isDown(p) || prev.get(k)?.state !== 'Active') continue;
    out.push({ at, port: { nodeGuid: p.nodeGuid, portNum: p.portNum }, count: 1, source: 'state' });
  }
  return out;
}

/**
 * `link-flapping` verdicts from the flap history: events within the window (default 24 h),
 * merged per physical link when `links` is given (both ends count once: a flap increments
 * LinkDownedCounter on both ends, so the larger end count is taken).
 */
export function evaluateFlaps(
  events: readonly FlapEvent[],
  opts: {
    now: string;
    links?: readonly FabricLink[];
    thresholds?: DeepPartial<HealthThresholds>;
    nodeName?: (g: string) => string | undefined;
  },
): Verdict[] {
  const t = resolveThresholds(opts.thresholds).flaps;
  const from = Date.parse(opts.now) - t.windowHours * 3_600_000;
  const linkOf = new Map<string, FabricLink>();
  for (const l of opts.links ?? []) {
    linkOf.set(portKey(l.a), l);
    linkOf.set(portKey(l.b), l);
  }
  const perEnd = new Map<string, number>();
  for (const e of events) {
    if (Date.parse(e.at) < from) continue;
    const k = portKey(e.port);
    perEnd.set(k, (perEnd.get(k) ?? 0) + e.count);
  }
  const perSubject = new Map<string, { subject: Verdict['subject']; count: number; label: string }>();
  const name = opts.nodeName ?? (() => undefined);
  for (const [k, count] of perEnd) {
    const l = linkOf.get(k);
    const [guid, num] = k.split('/');
    const ref = { nodeGuid: guid!, portNum: Number(num) };
    const sk = l ? linkKey(l.a, l.b) : k;
    const cur = perSubject.get(sk);
    const label = l ? `${portLabel(l.a, name)} <-> ${portLabel(l.b, name)}` : portLabel(ref, name);
    const subject: Verdict['subject'] = l ? { kind: 'link', a: l.a, b: l.b } : { kind: 'port', port: ref };
    if (!cur || count > cur.count) perSubject.set(sk, { subject, count, label });
  }
  const out: Verdict[] = [];
  for (const { subject, count, label } of perSubject.values()) {
    if (count < t.minorCount) continue;
    const sev: Severity = count >= t.criticalCount ? 'critical' : count >= t.majorCount ? 'major' : 'minor';
    out.push({
      kind: 'link-flapping',
      severity: sev,
      subject,
      title: `Link ${label} flapped ${count} time${count === 1 ? '' : 's'} in ${t.windowHours} h`,
      short: `link flapped ${count} time${count === 1 ? '' : 's'} in ${t.windowHours} h`,
      evidence: {
        count,
        windowHours: t.windowHours,
        threshold: sev === 'critical' ? t.criticalCount : sev === 'major' ? t.majorCount : t.minorCount,
      },
    });
  }
  return out;
}
