import type { Guid } from './types.ts';

/**
 * Canonical GUID form: `0x` + 16 lowercase hex digits. Accepts what the tools print:
 * `0x0002c903000e0b72`, `0002c903000e0b72`, `0x2c903000e0b72` (leading zeros dropped, as
 * `ibqueryerrors` prints `GUID 0xfc6a1c0300000003` but saquery may drop zeros),
 * upper case, and the colon-separated form `98:03:9b:03:00:9f:cb:d6` of some vendor dumps.
 * Returns undefined for anything that is not a 64-bit hex value.
 */
export function normalizeGuid(raw: string): Guid | undefined {
  let s = raw.trim().toLowerCase();
  if (s.includes(':')) s = s.replace(/:/g, '');
  if (s.startsWith('0x')) s = s.slice(2);
  if (s.length === 0 || s.length > 16 || !/^[0-9a-f]+$/.test(s)) return undefined;
  return '0x' + s.padStart(16, '0');
}
