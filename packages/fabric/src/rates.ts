import type { LinkSpeed, LinkWidth } from './types.ts';

/** Signalling rate per lane in Gb/s, as iblinkinfo prints it (`53.125 Gbps` for HDR). */
export const LANE_GBPS: Record<LinkSpeed, number> = {
  SDR: 2.5,
  DDR: 5,
  QDR: 10,
  FDR10: 10.3125,
  FDR: 14.0625,
  EDR: 25.78125,
  HDR: 53.125,
  NDR: 106.25,
  XDR: 212.5,
};

export const WIDTH_LANES: Record<LinkWidth, number> = { '1X': 1, '2X': 2, '4X': 4, '8X': 8, '12X': 12 };

/** Rank for comparisons (higher is faster). */
export const SPEED_RANK: Record<LinkSpeed, number> = {
  SDR: 1,
  DDR: 2,
  QDR: 3,
  FDR10: 4,
  FDR: 5,
  EDR: 6,
  HDR: 7,
  NDR: 8,
  XDR: 9,
};

/** Nominal data rate of a link in Gb/s (4X HDR = 200, 4X NDR = 400). */
export function nominalGbps(width: LinkWidth, speed: LinkSpeed): number {
  const perLane: Record<LinkSpeed, number> = {
    SDR: 2.5,
    DDR: 5,
    QDR: 10,
    FDR10: 10,
    FDR: 14,
    EDR: 25,
    HDR: 50,
    NDR: 100,
    XDR: 200,
  };
  return perLane[speed] * WIDTH_LANES[width];
}
