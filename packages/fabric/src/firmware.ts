import type { FirmwareGroup, FirmwareNodeRow, FirmwareReply } from './api.ts';

/**
 * Firmware inventory: nodes grouped by device and PSID (one firmware image: ibdiagnet's FW
 * Check compares versions within "the same Devid/PSID"), each group's newest version, and the
 * stragglers not on it, as UFM's health report lists them. Nodes that report no PSID are
 * grouped by device with their versions counted, but none of them is called a straggler. Pure.
 */

/** Device IDs seen in the real runs (NODES `DeviceID`, with the node descriptions that name them). */
const DEVICES: Record<number, string> = {
  // `"MF0;ib-switch-sequoia:MQM9700/U1",65,2,...,54002`
  54002: 'Quantum-2',
  // `"is-north-7-compute-1 mlx5_8",1,1,...,4129`
  4129: 'ConnectX-7',
  // `"Mellanox Technologies Aggregation Node",1,1,...,53001`
  53001: 'SHARP Aggregation Node',
};

export function deviceName(deviceId: number | null): string | null {
  return deviceId === null ? null : (DEVICES[deviceId] ?? null);
}

/** Orders dotted versions by their numbers (`31.2012.1068` > `31.2012.1024`, `28.41` > `28.9`). */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (Number.isNaN(d)) return a < b ? -1 : a > b ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

/** One node as the inventory needs it (`stale` is decided here). */
export type FirmwareNodeInput = Omit<FirmwareNodeRow, 'stale'> & { deviceId: number | null; psid: string | null };

/** Builds the reply from every node with a known version; `unreported` is passed through. */
export function firmwareInventory(nodes: readonly FirmwareNodeInput[], unreported: number, now: number): FirmwareReply {
  const observedAt = nodes.length ? nodes.reduce((m, n) => Math.max(m, n.observedAt), 0) : null;
  const groups = new Map<string, FirmwareNodeInput[]>();
  for (const n of nodes) {
    const k = `${n.deviceId ?? ''}|${n.psid ?? ''}`;
    const list = groups.get(k);
    if (list) list.push(n);
    else groups.set(k, [n]);
  }
  const out: FirmwareGroup[] = [];
  for (const list of groups.values()) {
    const counts = new Map<string, number>();
    const tiers = new Map<FirmwareGroup['tiers'][number]['tier'], number>();
    for (const n of list) {
      counts.set(n.version, (counts.get(n.version) ?? 0) + 1);
      tiers.set(n.tier ?? 'none', (tiers.get(n.tier ?? 'none') ?? 0) + 1);
    }
    const versions = [...counts]
      .map(([version, c]) => ({ version, nodes: c }))
      .sort((a, b) => compareVersions(b.version, a.version));
    const latest = versions[0]!.version;
    // Without a PSID the nodes may run different images (run b's 256 HCAs: 255 on one image's
    // 28.40.1000, one on another's 28.41.1000): an older version is then no straggler.
    const first = list[0]!;
    const stragglers = list
      .filter((n) => first.psid !== null && n.version !== latest)
      .sort(
        (a, b) => compareVersions(a.version, b.version) || a.name.localeCompare(b.name) || a.guid.localeCompare(b.guid),
      )
      .map(({ deviceId: _d, psid: _p, ...n }) => ({ ...n, stale: n.observedAt < observedAt! }));
    out.push({
      deviceId: first.deviceId,
      device: deviceName(first.deviceId),
      psid: first.psid,
      nodes: list.length,
      tiers: [...tiers].map(([tier, c]) => ({ tier, nodes: c })).sort((a, b) => b.nodes - a.nodes),
      latest,
      versions,
      stragglers,
    });
  }
  out.sort(
    (a, b) =>
      Number(b.stragglers.length > 0) - Number(a.stragglers.length > 0) ||
      b.nodes - a.nodes ||
      (a.psid ?? '').localeCompare(b.psid ?? ''),
  );
  return { generatedAt: now, observedAt, nodes: nodes.length, unreported, groups: out };
}
