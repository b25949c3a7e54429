import {
  DEFAULT_THRESHOLDS,
  nominalGbps,
  resolveThresholds,
  symbolErrorsPerHourAtBer,
  type HealthThresholds,
} from '@ibwatch/fabric';
import type { Config } from '../config.ts';

/** The health thresholds in force: the field defaults with the configured grace period. */
export function healthThresholds(config: Config): HealthThresholds {
  return resolveThresholds({ gracePeriodMinutes: config.gracePeriodMin });
}

/**
 * Per-counter thresholds as rates per second, for the lines drawn on the port charts: the
 * rate at which a counter's verdict becomes `major` (symbol errors: the IBTA 1e-12 BER at the
 * expected link rate).
 */
export function rateThresholds(config: Config): Record<string, number> {
  const t = DEFAULT_THRESHOLDS;
  const gbps = nominalGbps(config.expectedRate.width, config.expectedRate.speed);
  const out: Record<string, number> = {
    SymbolErrorCounter: symbolErrorsPerHourAtBer(t.symbolBer.major, gbps) / 3600,
    LinkErrorRecoveryCounter: t.linkErrorRecoveryMajorPerMinute / 60,
    // Any LinkDowned increment is a flap: the line sits just above zero.
    LinkDownedCounter: 1 / 86_400,
  };
  for (const [name, rule] of Object.entries(t.rates)) {
    const perHour = rule.majorPerHour ?? rule.minorPerHour;
    if (perHour !== undefined) out[name] = perHour / 3600;
  }
  return out;
}
