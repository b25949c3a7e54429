import type { CounterDelta, PortDelta } from './counters.ts';
import { deltaOf } from './counters.ts';
import { portKey, type Evidence, type Severity, type Verdict } from './findings.ts';
import { clearCountersHow, SATURATED_KIND, SATURATION_WATCHED, saturationSeverity } from './lifetime-counters.ts';
import { nominalGbps } from './rates.ts';
import { resolveThresholds, type DeepPartial, type HealthThresholds, type RateRule } from './thresholds.ts';
import type { FabricPort } from './types.ts';

/** Context for {@link evaluatePortHealth}. */
export interface PortHealthContext {
  /** Sweep time (ISO-8601), for the grace period. */
  now: string;
  /** Current ports (for the active width/speed → line rate). Keyed internally by portKey. */
  ports?: readonly FabricPort[];
  /** When each port's link was first seen (ISO-8601), keyed by `portKey`. */
  linkFirstSeen?: ReadonlyMap<string, string>;
  /**
   * When the previous snapshot the deltas start from was taken (ISO-8601, the clock of
   * `linkFirstSeen`); default `now` minus the port's interval. A link first seen at or before it
   * was already there and gets no grace.
   */
  previousAt?: string;
  /** Display name of a port, e.g. `leaf-01 port 3`; default `<guid> port N`. */
  portName?: (nodeGuid: string, portNum: number) => string;
  thresholds?: DeepPartial<HealthThresholds>;
  /** The LID to address a port with (perfquery), when known. */
  lidOf?: (nodeGuid: string, portNum: number) => number | undefined;
}

const ORDER: Severity[] = ['info', 'minor', 'major', 'critical'];

function fmt(n: number): string {
  if (n === 0) return '0';
  if (Math.abs(n) >= 0.01 && Math.abs(n) < 1e5) return String(Math.round(n * 100) / 100);
  return n.toExponential(1);
}

function baseEvidence(d: CounterDelta, interval: number): Evidence {
  return {
    counter: d.counter,
    source: d.source,
    delta: d.delta === undefined ? null : d.delta.toString(),
    intervalSeconds: interval,
    ratePerSecond: d.ratePerSecond ?? null,
    ratePerHour: d.ratePerSecond === undefined ? null : d.ratePerSecond * 3600,
  };
}

function severityForRate(rule: RateRule, perHour: number): Severity | undefined {
  if (rule.criticalPerHour !== undefined && perHour >= rule.criticalPerHour) return 'critical';
  if (rule.majorPerHour !== undefined && perHour >= rule.majorPerHour) return 'major';
  if (rule.minorPerHour !== undefined && perHour >= rule.minorPerHour) return 'minor';
  return perHour > 0 ? rule.anyIncrease : undefined;
}

/**
 * Error-rate verdicts for every port with deltas. Rules (kinds):
 * - `symbol-errors`: estimated BER = symbol errors / bits over the interval, tiered by
 *   {@link HealthThresholds.symbolBer}; evidence has ber, bits and where the bits came from.
 * - `link-error-recovery`: any increase minor, more than 5/min (default) major.
 * - `link-downed`: any LinkDownedCounter increase (a flap); suppressed during the grace period.
 * - `counter-rate` per counter in `rates` (PortRcvErrors, PortXmitDiscards, ...).
 * - `congestion`: PortXmitWait ticks per transmitted packet.
 * - `counter-saturated`: a watched counter is pegged: rate unknown, clear it and measure again.
 * Ports whose link was first seen in this very scan (after the previous snapshot, and within
 * the grace period of now) get severity info and `evidence.gracePeriod = true`: cabling a link
 * makes errors. A link that was there at the previous snapshot is graded normally, however
 * recently it appeared. Linear in the number of ports.
 */
export function evaluatePortHealth(deltas: readonly PortDelta[], ctx: PortHealthContext): Verdict[] {
  const t = resolveThresholds(ctx.thresholds);
  const portsByKey = new Map<string, FabricPort>();
  for (const p of ctx.ports ?? []) portsByKey.set(portKey(p), p);
  const nowMs = Date.parse(ctx.now);
  const name = ctx.portName ?? ((g: string, n: number) => `${g} port ${n}`);
  const out: Verdict[] = [];
  const rateRules = Object.entries(t.rates);
  const previousMs = ctx.previousAt === undefined ? undefined : Date.parse(ctx.previousAt);
  // First seen after the snapshot the interval starts from: the link is new in this very scan.
  const isNewLink = (firstMs: number, interval: number): boolean =>
    t.gracePeriodMinutes > 0 &&
    firstMs > (previousMs ?? nowMs - interval * 1000) &&
    nowMs - firstMs < t.gracePeriodMinutes * 60_000;
  for (const pd of deltas) {
    if (isEmpty(pd.counters)) continue; // nothing moved: the common case
    const key = portKey(pd);
    const first = ctx.linkFirstSeen?.get(key);
    const inGrace = first !== undefined && isNewLink(Date.parse(first), pd.intervalSeconds);
    const subject = { kind: 'port' as const, port: { nodeGuid: pd.nodeGuid, portNum: pd.portNum } };
    const pname = name(pd.nodeGuid, pd.portNum);
    const emit = (kind: string, severity: Severity, title: string, short: string, evidence: Evidence): void => {
      if (inGrace) {
        if (kind === 'link-downed') return; // cabling a link takes it down: expected
        out.push({
          kind,
          severity: 'info',
          subject,
          title: `${title} (new link, in grace period)`,
          short,
          evidence: { ...evidence, gracePeriod: true, severityOutsideGrace: severity },
        });
        return;
      }
      out.push({ kind, severity, subject, title, short, evidence });
    };
    const interval = pd.intervalSeconds;

    for (const c of SATURATION_WATCHED) {
      const d = pd.counters[c];
      if (d?.event !== 'saturated') continue;
      const how = clearCountersHow(ctx.lidOf?.(pd.nodeGuid, pd.portNum), pd.portNum);
      emit(
        `${SATURATED_KIND}${c}`,
        saturationSeverity(c),
        `${c} saturated on ${pname}: rate unknown, ${how}`,
        `${c} saturated: clear counters and measure again`,
        { counter: c, source: d.source, current: d.current.toString(), widthBits: d.widthBits, note: d.note ?? null },
      );
    }

    const sym = pd.counters.SymbolErrorCounter;
    if (sym?.delta !== undefined && sym.delta > 0n && interval > 0) {
      const port = portsByKey.get(key);
      const lineBits =
        port?.widthActive && port.speedActive
          ? nominalGbps(port.widthActive, port.speedActive) * 1e9 * interval
          : undefined;
      const rcv = deltaOf(pd, 'PortRcvData');
      const dataBits = rcv !== undefined && rcv > 0n ? Number(rcv) * 32 : undefined;
      const useData =
        t.berBits === 'data-first' ? dataBits !== undefined : lineBits === undefined && dataBits !== undefined;
      const bits = useData ? dataBits : lineBits;
      const errors = Number(sym.delta);
      const perHour = (errors / interval) * 3600;
      const ev: Evidence = {
        ...baseEvidence(sym, interval),
        bitsSource: bits === undefined ? 'unknown' : useData ? 'PortRcvData*32' : 'line-rate',
      };
      if (bits === undefined) {
        emit(
          'symbol-errors',
          'minor',
          `Symbol errors on ${pname}: ${errors} in ${fmt(interval)} s (BER unknown: no link rate)`,
          `symbol errors ${fmt(perHour)}/h`,
          ev,
        );
      } else {
        const ber = errors / bits;
        const b = t.symbolBer;
        let sev: Severity | undefined =
          ber >= b.critical
            ? 'critical'
            : ber >= b.major
              ? 'major'
              : ber >= b.minor
                ? 'minor'
                : ber >= b.info
                  ? 'info'
                  : undefined;
        if (sev && errors < b.minErrors) sev = 'info';
        const threshold =
          sev === 'critical' ? b.critical : sev === 'major' ? b.major : sev === 'minor' ? b.minor : b.info;
        if (sev) {
          emit(
            'symbol-errors',
            sev,
            `Symbol errors on ${pname}: estimated BER ${fmt(ber)} (${fmt(perHour)}/h)`,
            `symbol errors ${fmt(ber)} BER (${fmt(perHour)}/h)`,
            { ...ev, ber, bits, threshold },
          );
        }
      }
    }

    const ler = pd.counters.LinkErrorRecoveryCounter;
    if (ler?.delta !== undefined && ler.delta > 0n && interval > 0) {
      const perMin = (Number(ler.delta) / interval) * 60;
      const sev: Severity = perMin > t.linkErrorRecoveryMajorPerMinute ? 'major' : 'minor';
      // Worded per hour like every other error rate ibwatch shows (charts, worklist, CSV); the
      // threshold stays configured per minute, as the field states it.
      emit(
        'link-error-recovery',
        sev,
        `Link retrained ${ler.delta} times on ${pname} (${fmt(perMin * 60)}/h)`,
        `${ler.delta} link error recoveries (${fmt(perMin * 60)}/h)`,
        { ...baseEvidence(ler, interval), ratePerMinute: perMin, threshold: t.linkErrorRecoveryMajorPerMinute },
      );
    }

    const ld = pd.counters.LinkDownedCounter;
    if (ld?.delta !== undefined && ld.delta > 0n) {
      emit(
        'link-downed',
        t.linkDownedSeverity,
        `Link went down ${ld.delta} time${ld.delta === 1n ? '' : 's'} on ${pname}`,
        `link went down ${ld.delta}x`,
        { ...baseEvidence(ld, interval), threshold: 0 },
      );
    }

    for (const [counter, rule] of rateRules) {
      const d = pd.counters[counter];
      if (d?.delta === undefined || d.delta === 0n || !(interval > 0)) continue;
      const perHour = (Number(d.delta) / interval) * 3600;
      const sev = severityForRate(rule, perHour);
      if (!sev) continue;
      const threshold =
        sev === 'critical'
          ? rule.criticalPerHour
          : sev === 'major'
            ? rule.majorPerHour
            : sev === 'minor'
              ? rule.minorPerHour
              : 0;
      emit(
        `counter-rate:${counter}`,
        sev,
        `${counter} at ${fmt(perHour)}/h on ${pname}`,
        `${counter} ${fmt(perHour)}/h`,
        { ...baseEvidence(d, interval), thresholdPerHour: threshold ?? 0 },
      );
    }

    const wait = pd.counters.PortXmitWait;
    const pkts = deltaOf(pd, 'PortXmitPkts');
    if (wait?.delta !== undefined && wait.delta > 0n && pkts !== undefined && pkts > 0n) {
      const perPkt = Number(wait.delta) / Number(pkts);
      const sev: Severity | undefined =
        perPkt >= t.xmitWaitPerPacket.major ? 'major' : perPkt >= t.xmitWaitPerPacket.minor ? 'minor' : undefined;
      if (sev) {
        emit(
          'congestion',
          sev,
          `Congestion on ${pname}: ${fmt(perPkt)} wait ticks per packet sent`,
          `xmit wait ${fmt(perPkt)}/pkt`,
          {
            ...baseEvidence(wait, interval),
            xmitPkts: pkts.toString(),
            waitPerPacket: perPkt,
            threshold: sev === 'major' ? t.xmitWaitPerPacket.major : t.xmitWaitPerPacket.minor,
          },
        );
      }
    }
  }
  return out;
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** The worse of two severities. */
export function worse(a: Severity, b: Severity): Severity {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}
