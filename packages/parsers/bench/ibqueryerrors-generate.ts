/**
 * `generateIbqueryerrors({ switches, hcas })`: the two outputs a collector takes from
 * infiniband-diags on a big fabric, in the exact layout of the lab captures
 * (fixtures/diags/lab-ibqueryerrors-counters.txt, lab-ibqueryerrors-data.txt):
 *
 * - `counters`: `ibqueryerrors --counters`, the 8 data/packet counters of every port, down
 *   ports and zeros included (64 ports per switch, port 1 per HCA);
 * - `data`: `ibqueryerrors --data --threshold-file /dev/null`, every port with a non-zero
 *   error counter or PortXmitWait, its data counters appended; a switch prints its `port ALL`
 *   aggregate first (AllPortSelect), an HCA header carries no GUID.
 *
 * Values are deterministic pseudo-random; data counters reach 2^40+ so the bigint paths run.
 */

export interface IbqeGenerateOptions {
  switches: number;
  hcas: number;
}

export interface GeneratedIbqe {
  counters: string;
  data: string;
  /** Ports in `counters` (every port) and in `data` (port lines, `port ALL` included). */
  counterPorts: number;
  dataPorts: number;
}

const hex16 = (n: bigint): string => '0x' + n.toString(16).padStart(16, '0');

/** The tool's `(%s)` suffix: 1024-based, `KB`/`MB`/... for data (4-byte words), `K`/`M` for packets. */
function human(value: bigint, data: boolean): string {
  let v = Number(value) * (data ? 4 : 1);
  const units = ['', 'K', 'M', 'G', 'T', 'P'];
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(3)}${units[u]}${data && u > 0 ? 'B' : ''}`;
}

const DATA_NAMES = ['PortXmitData', 'PortRcvData', 'PortXmitPkts', 'PortRcvPkts'];
const COUNTER_NAMES = [
  ...DATA_NAMES,
  'PortUnicastXmitPkts',
  'PortUnicastRcvPkts',
  'PortMulticastXmitPkts',
  'PortMulticastRcvPkts',
];
const ERROR_NAMES = [
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'LinkDownedCounter',
  'PortRcvErrors',
  'PortXmitDiscards',
  'PortXmitWait',
];

/** Write the two outputs as strings (a 10k-GPU `--counters` output is ~20 MB). */
export function generateIbqueryerrors(opts: IbqeGenerateOptions): GeneratedIbqe {
  let x = 0x9e3779b9;
  const next = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x);
  const big = (): bigint => BigInt(next()) * BigInt(1 + (next() % 4096));
  const item = (name: string, v: bigint): string =>
    `[${name} == ${v}${COUNTER_NAMES.includes(name) ? ` (${human(v, name.endsWith('Data'))})` : ''}]`;

  const nodes: { guid: string; desc: string; ca: boolean; ports: number }[] = [];
  for (let i = 0; i < opts.switches; i++) {
    nodes.push({
      guid: hex16(0xfc6a1c0300000000n + BigInt(i) * 0x40n),
      desc: `leaf-${String(i).padStart(4, '0')}`,
      ca: false,
      ports: 64,
    });
  }
  for (let i = 0; i < opts.hcas; i++) {
    nodes.push({
      guid: hex16(0xb83fd20300000000n + BigInt(i) * 0x10n),
      desc: `gpu-node-${Math.floor(i / 8)} mlx5_${i % 8}`,
      ca: true,
      ports: 1,
    });
  }

  const counters: string[] = [];
  const data: string[] = [];
  let counterPorts = 0;
  let dataPorts = 0;
  let badNodes = 0;
  for (const n of nodes) {
    counters.push(`Data Counters for ${n.guid} "${n.desc}"`);
    const bad: string[] = [];
    const all = new Map<string, bigint>();
    for (let p = 1; p <= n.ports; p++) {
      counterPorts++;
      const down = !n.ca && p > 60;
      const vals = COUNTER_NAMES.map((name, k) =>
        down || k >= 4 ? 0n : name.endsWith('Data') ? big() : BigInt(next() % 50_000_000),
      );
      counters.push(`   GUID ${n.guid} port ${p}: ${COUNTER_NAMES.map((name, k) => item(name, vals[k])).join(' ')}`);
      // About 1 port in 3 waited on credits; 1 in 40 has an error counter.
      if (down || next() % 3 !== 0) continue;
      const errs = ERROR_NAMES.map((name) =>
        name === 'PortXmitWait' ? BigInt(next() % 5_000_000) : next() % 40 === 0 ? BigInt(next() % 500) : 0n,
      );
      const items = ERROR_NAMES.map((name, k) => (errs[k] === 0n ? '' : item(name, errs[k]))).filter(Boolean);
      if (items.length === 0) continue;
      ERROR_NAMES.forEach((name, k) => all.set(name, (all.get(name) ?? 0n) + errs[k]));
      DATA_NAMES.forEach((name, k) => all.set(name, (all.get(name) ?? 0n) + vals[k]));
      // Error mode prints the PORT GUID (rdma-core: node->ports[N]->guid): node GUID + 1 on an HCA.
      const guid = n.ca ? hex16(BigInt(n.guid) + 1n) : n.guid;
      bad.push(
        `   GUID ${guid} port ${p}: ${[...items, ...DATA_NAMES.map((name, k) => item(name, vals[k]))].join(' ')}`,
      );
    }
    if (bad.length === 0) continue;
    badNodes++;
    data.push(n.ca ? `Errors for "${n.desc}"` : `Errors for ${n.guid} "${n.desc}"`);
    if (!n.ca) {
      const items = [...ERROR_NAMES, ...DATA_NAMES]
        .filter((name) => (all.get(name) ?? 0n) > 0n)
        .map((name) => item(name, all.get(name)!));
      data.push(`   GUID ${n.guid} port ALL: ${items.join(' ')}`);
      dataPorts++;
    }
    data.push(...bad);
    dataPorts += bad.length;
  }
  const footer = (bad: number, badPorts: number): string =>
    `\n## Summary: ${nodes.length} nodes checked, ${bad} bad nodes found\n##          ` +
    `${counterPorts} ports checked, ${badPorts} ports have errors beyond threshold\n## Thresholds: \n` +
    `## Suppressed:\n`;
  return {
    counters: counters.join('\n') + '\n' + footer(0, 0),
    data: data.join('\n') + '\n' + footer(badNodes, dataPorts),
    counterPorts,
    dataPorts,
  };
}
