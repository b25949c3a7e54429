import type { Severity } from './findings.ts';

/**
 * Default error-rate thresholds, from what the field uses. All are configurable: pass a partial
 * object to {@link resolveThresholds}.
 *
 * Symbol BER: the IBTA spec allows 1e-12 (at a 32 Gb/s QDR data rate that is the folklore
 * "~120 symbol errors per hour"); NDR acceptance uses 1e-14 (2.88 errors per 12 min at 400 Gb/s)
 * and 1e-15 (3 errors per 125 min). One or two errors in a sweep say little, so BER verdicts
 * above `info` need at least `minErrors` symbol errors in the interval.
 */
export interface BerThresholds {
  /** BER at or above which the verdict is info (NDR 1e-15 window). */
  info: number;
  /** minor: NDR acceptance 1e-14. */
  minor: number;
  /** major: IBTA spec limit 1e-12. */
  major: number;
  /** critical: 100x the IBTA limit. */
  critical: number;
  /** Fewer symbol errors than this in one interval → at most info. */
  minErrors: number;
}

/** Rate limits of one error counter, in events per hour (undefined = tier not used). */
export interface RateRule {
  minorPerHour?: number;
  majorPerHour?: number;
  criticalPerHour?: number;
  /** Severity of any increase below minorPerHour; undefined = not reported. */
  anyIncrease?: Severity;
}

export interface HealthThresholds {
  symbolBer: BerThresholds;
  /**
   * Which bit count divides symbol errors. Symbol errors are counted on every symbol on the
   * wire, idle ones too, so the line rate x interval is the physical denominator;
   * `PortRcvData x 32` undercounts bits on an idle link and inflates BER by orders of magnitude.
   * `data-first` uses received data when available (as some tools do).
   */
  berBits: 'line-rate-first' | 'data-first';
  /** LinkErrorRecoveryCounter: more than this many per minute is major. */
  linkErrorRecoveryMajorPerMinute: number;
  /** LinkDownedCounter: any increment is a flap of this severity. */
  linkDownedSeverity: Severity;
  /** Per-counter rate rules (classic counter names). */
  rates: Record<string, RateRule>;
  /** PortXmitWait ticks per transmitted packet (congestion index): minor / major. */
  xmitWaitPerPacket: { minor: number; major: number };
  /** Links first seen less than this many minutes ago: verdicts downgraded to info, flaps suppressed. */
  gracePeriodMinutes: number;
  /** Flap history window and counts for the `link-flapping` verdict. */
  flaps: { windowHours: number; minorCount: number; majorCount: number; criticalCount: number };
}

/** The defaults (see the table in the package's API notes). */
export const DEFAULT_THRESHOLDS: HealthThresholds = {
  symbolBer: { info: 1e-15, minor: 1e-14, major: 1e-12, critical: 1e-10, minErrors: 3 },
  berBits: 'line-rate-first',
  linkErrorRecoveryMajorPerMinute: 5,
  linkDownedSeverity: 'major',
  rates: {
    PortRcvErrors: { minorPerHour: 10, majorPerHour: 100, anyIncrease: 'info' },
    PortRcvRemotePhysicalErrors: { minorPerHour: 10, majorPerHour: 100, anyIncrease: 'info' },
    PortXmitDiscards: { minorPerHour: 100, majorPerHour: 1000, anyIncrease: 'info' },
    LocalLinkIntegrityErrors: { majorPerHour: 10, anyIncrease: 'minor' },
    ExcessiveBufferOverrunErrors: { majorPerHour: 10, anyIncrease: 'minor' },
  },
  xmitWaitPerPacket: { minor: 1, major: 10 },
  gracePeriodMinutes: 30,
  flaps: { windowHours: 24, minorCount: 1, majorCount: 3, criticalCount: 10 },
};

/** Deep-enough merge of a partial configuration over the defaults. */
export function resolveThresholds(partial?: DeepPartial<HealthThresholds>): HealthThresholds {
  const d = DEFAULT_THRESHOLDS;
  if (!partial) return d;
  const rates: Record<string, RateRule> = { ...d.rates };
  for (const [k, v] of Object.entries(partial.rates ?? {})) rates[k] = { ...d.rates[k], ...v };
  return {
    ...d,
    ...partial,
    symbolBer: { ...d.symbolBer, ...partial.symbolBer },
    rates,
    xmitWaitPerPacket: { ...d.xmitWaitPerPacket, ...partial.xmitWaitPerPacket },
    flaps: { ...d.flaps, ...partial.flaps },
  } as HealthThresholds;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Symbol errors per hour that correspond to a BER on a link of `gbps` (1e-14 at 400G → 14.4/h). */
export function symbolErrorsPerHourAtBer(ber: number, gbps: number): number {
  return ber * gbps * 1e9 * 3600;
}
