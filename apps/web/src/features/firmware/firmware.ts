/**
 * Pure helpers of the firmware view: how old the data is, what to say about a group, how many
 * nodes are behind. Rendering is in FirmwarePage.tsx.
 */
import type { FirmwareGroup, FirmwareReply } from '@ibwatch/fabric';

/** Firmware older than this is flagged: ibdiagnet runs hourly by default, a day is many misses. */
export const FIRMWARE_STALE_MS = 24 * 3_600_000;

/** `3 days`, `5 h`, `40 min`: how long ago, coarse. */
export function ageText(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${Math.max(min, 0)} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} days`;
}

/** Null while fresh; else how old the newest firmware data is. */
export function staleness(r: Pick<FirmwareReply, 'observedAt'>, now: number): string | null {
  if (r.observedAt === null || now - r.observedAt < FIRMWARE_STALE_MS) return null;
  return ageText(now - r.observedAt);
}

/** Device as people say it: `Quantum-2 (54002, 0xd2f2)`, or the number alone when unknown. */
export function deviceLabel(g: Pick<FirmwareGroup, 'device' | 'deviceId'>): string {
  if (g.deviceId === null) return 'unknown device';
  const id = `${g.deviceId}, 0x${g.deviceId.toString(16)}`;
  return g.device ? `${g.device} (${id})` : `device ${id}`;
}

const TIER_NAMES: Record<string, string> = {
  hca: 'HCA',
  aggregation: 'SHARP AN',
  unknown: 'no tier',
  none: 'not in topology',
};

/** A tier in words: `leaf`, `HCA`, `SHARP AN` (Aggregation Node), `no tier`. */
export function tierName(tier: string | null): string {
  return tier === null ? '—' : (TIER_NAMES[tier] ?? tier);
}

/** `7 leaf, 1 spine`. */
export function tiersText(g: Pick<FirmwareGroup, 'tiers'>): string {
  return g.tiers.map((t) => `${t.nodes} ${tierName(t.tier)}`).join(', ');
}

/** Nodes behind their image's newest version: only groups with a PSID count (one image for sure). */
export function behind(r: Pick<FirmwareReply, 'groups'>): { nodes: number; groups: number } {
  const g = r.groups.filter((x) => x.psid !== null && x.stragglers.length > 0);
  return { nodes: g.reduce((n, x) => n + x.stragglers.length, 0), groups: g.length };
}
