/**
 * The value mappings every infiniband-diags tool needs: widths, speed names, lane rates, port and
 * physical states, counters as the tools print them. Pure: no I/O. (The line runner is
 * common/line-runner.ts, the per-run context common/line-context.ts.)
 */
import type { LinkSpeed, LinkWidth, PhysState, PortState } from '@ibwatch/fabric';

const WIDTHS: Record<string, LinkWidth> = { '1X': '1X', '2X': '2X', '4X': '4X', '8X': '8X', '12X': '12X' };

/** `4X` / `4x` -> `4X`; undefined for anything else. */
export function parseWidth(raw: string): LinkWidth | undefined {
  return WIDTHS[raw.toUpperCase()];
}

const SPEED_NAMES: Record<string, LinkSpeed> = {
  SDR: 'SDR',
  DDR: 'DDR',
  QDR: 'QDR',
  FDR10: 'FDR10',
  FDR: 'FDR',
  EDR: 'EDR',
  HDR: 'HDR',
  NDR: 'NDR',
  XDR: 'XDR',
};

/** Speed name as ibnetdiscover prints it (`HDR`, `FDR10`); `???` (down port) -> undefined. */
export function parseSpeedName(raw: string): LinkSpeed | undefined {
  return SPEED_NAMES[raw.toUpperCase()];
}

/** Lane rate in Gb/s as iblinkinfo prints it (`%s Gbps`) -> generation. */
const LANE_RATES: Record<string, LinkSpeed> = {
  '2.5': 'SDR',
  '5.0': 'DDR',
  '5': 'DDR',
  '10.0': 'QDR',
  '10': 'QDR',
  '10.3125': 'FDR10',
  '14.0625': 'FDR',
  '25.78125': 'EDR',
  '53.125': 'HDR',
  '106.25': 'NDR',
  '212.5': 'XDR',
};

/**
 * Lane rate string -> LinkSpeed. `10.0` is QDR unless the tool marks it FDR10: iblinkinfo prints
 * `10.0 Gbps (FDR10)` for FDR10 (Mellanox extended speed), plain `10.0 Gbps` for QDR.
 */
export function parseLaneRate(raw: string, fdr10Marker = false): LinkSpeed | undefined {
  if (fdr10Marker) return 'FDR10';
  return LANE_RATES[raw];
}

const PORT_STATES: Record<string, PortState> = {
  Down: 'Down',
  Initialize: 'Initialize',
  Init: 'Initialize',
  Armed: 'Armed',
  Active: 'Active',
};

export function parsePortState(raw: string): PortState {
  return PORT_STATES[raw] ?? 'Unknown';
}

const PHYS_STATES: Record<string, PhysState> = {
  NoChange: 'NoStateChange',
  NoStateChange: 'NoStateChange',
  Sleep: 'Sleep',
  Polling: 'Polling',
  Disabled: 'Disabled',
  PortConfigurationTraining: 'PortConfigurationTraining',
  LinkUp: 'LinkUp',
  LinkErrorRecovery: 'LinkErrorRecovery',
  PhyTest: 'PhyTest',
};

export function parsePhysState(raw: string): PhysState {
  return PHYS_STATES[raw] ?? 'Unknown';
}

/** Decimal or `0x` hex counter text -> bigint; undefined if it is neither. */
export function parseCounter(raw: string): bigint | undefined {
  const s = raw.trim();
  if (/^\d+$/.test(s) || /^0x[0-9a-f]+$/i.test(s)) return BigInt(s);
  return undefined;
}
