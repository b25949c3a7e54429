import { describe, expect, it } from 'vitest';
import type { FirmwareGroup } from '@ibwatch/fabric';
import { ageText, behind, deviceLabel, FIRMWARE_STALE_MS, staleness, tiersText } from './firmware.ts';

const group = (over: Partial<FirmwareGroup>): FirmwareGroup => ({
  deviceId: 54002,
  device: 'Quantum-2',
  psid: 'MT_0000000579',
  nodes: 8,
  tiers: [{ tier: 'leaf', nodes: 8 }],
  latest: '31.2012.1068',
  versions: [],
  stragglers: [],
  ...over,
});
const straggler = {
  guid: '0xfc6a1c030091cf00',
  name: 'Quantum-2 Mellanox Technologies',
  type: 'switch' as const,
  tier: 'leaf' as const,
  version: '31.2012.1024',
  hwRevision: 0xa0,
  observedAt: 0,
  stale: false,
};

describe('firmware view helpers', () => {
  it('flags data older than a day, saying how old', () => {
    expect(staleness({ observedAt: null }, 1e12)).toBeNull();
    expect(staleness({ observedAt: 1e12 - FIRMWARE_STALE_MS + 1 }, 1e12)).toBeNull();
    expect(staleness({ observedAt: 1e12 - 3 * 86_400_000 }, 1e12)).toBe('3 days');
    expect([ageText(30 * 60_000), ageText(5 * 3_600_000), ageText(49 * 3_600_000)]).toEqual([
      '30 min',
      '5 h',
      '2 days',
    ]);
  });

  it('names devices with their ID in decimal and hex', () => {
    expect(deviceLabel(group({}))).toBe('Quantum-2 (54002, 0xd2f2)');
    expect(deviceLabel(group({ device: null, deviceId: 4123 }))).toBe('device 4123, 0x101b');
    expect(deviceLabel(group({ deviceId: null }))).toBe('unknown device');
    expect(
      tiersText(
        group({
          tiers: [
            { tier: 'leaf', nodes: 7 },
            { tier: 'none', nodes: 1 },
          ],
        }),
      ),
    ).toBe('7 leaf, 1 not in topology');
  });

  it('counts the nodes behind only in groups whose PSID is known', () => {
    const r = {
      groups: [
        group({ stragglers: Array(7).fill(straggler) }),
        group({ psid: null, deviceId: 53001, stragglers: Array(6).fill(straggler) }),
        group({ psid: 'MT_0000001120' }),
      ],
    };
    expect(behind(r)).toEqual({ nodes: 7, groups: 1 });
  });
});
