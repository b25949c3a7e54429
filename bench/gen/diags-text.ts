/**
 * infiniband-diags 44 outputs for a generated fabric, in the layouts captured from the real
 * tools (packages/parsers/fixtures/diags/lab-*.txt): `ibnetdiscover`, `iblinkinfo`,
 * `ibqueryerrors --counters` and `ibqueryerrors --data --threshold-file /dev/null`.
 */
import type { FatTreeNode as TopoNode } from '../../packages/fabric/src/index.ts';
import { portGuid, type BenchFabric, type BenchPort } from '../../packages/parsers/bench/fabric.ts';
import type { SweepState } from '../../packages/parsers/bench/sweeps.ts';
import { IBQE_ERROR_MODE_COUNTERS } from '../../packages/parsers/src/diags/ibqueryerrors-grammar.ts';

const hex = (g: string): string => g.slice(2);
const nodeId = (n: TopoNode): string => `${n.type === 'switch' ? 'S' : 'H'}-${hex(n.guid)}`;
const LANE_GBPS: Record<string, string> = {
  SDR: '2.5',
  DDR: '5.0',
  QDR: '10.0',
  FDR: '14.0625',
  EDR: '25.78125',
  HDR: '53.125',
  NDR: '106.25',
};

export function ibnetdiscoverText(f: BenchFabric): string {
  const rate = `${f.topo.width.toLowerCase()}${f.topo.speed}`;
  const out: string[] = [
    '#',
    '# Topology file: generated on Mon Mar 31 23:43:18 2025',
    '#',
    `# Initiated from node ${hex(f.switches[0]!.guid)} port ${hex(f.switches[0]!.guid)}`,
    '',
  ];
  const byNode = new Map<TopoNode, BenchPort[]>();
  for (const p of f.connected) {
    let l = byNode.get(p.node);
    if (!l) byNode.set(p.node, (l = []));
    l.push(p);
  }
  for (const n of f.switches) {
    out.push('vendid=0x0', 'devid=0x0', `sysimgguid=${n.guid}`, `switchguid=${n.guid}(${hex(n.guid)})`);
    out.push(`Switch\t${n.numPorts} "${nodeId(n)}"\t\t# "${n.name}" base port 0 lid ${f.lidOf.get(n.name)} lmc 0`);
    for (const p of byNode.get(n) ?? []) {
      const q = p.peer!;
      const far =
        q.node.type === 'ca'
          ? `"${nodeId(q.node)}"[${q.port}](${hex(portGuid(q.node))}) `
          : `"${nodeId(q.node)}"[${q.port}]`;
      out.push(`[${p.port}]\t${far}\t\t# "${q.node.name}" lid ${q.lid} ${rate}`);
    }
    out.push('');
  }
  for (const n of f.cas) {
    out.push(
      'vendid=0x0',
      'devid=0x0',
      `sysimgguid=${n.guid}`,
      `caguid=${n.guid}`,
      `Ca\t1 "${nodeId(n)}"\t\t# "${n.name}"`,
    );
    for (const p of byNode.get(n) ?? []) {
      const q = p.peer!;
      out.push(
        `[1](${hex(portGuid(n))}) \t"${nodeId(q.node)}"[${q.port}]\t\t# lid ${p.lid} lmc 0 ` +
          `"${q.node.name}" lid ${q.lid} ${rate}`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

export function iblinkinfoText(f: BenchFabric): string {
  const up = `==( ${f.topo.width.padEnd(4)}${LANE_GBPS[f.topo.speed]!.padStart(12)} Gbps Active/  LinkUp)==>`;
  const out: string[] = [];
  for (const p of f.connected) {
    if (p.node.type !== 'ca') continue;
    const q = p.peer!;
    out.push(`CA: ${p.node.name}:`);
    out.push(
      `      ${portGuid(p.node)}${String(p.lid).padStart(7)}${String(p.port).padStart(5)}[  ] ` +
        `${up}${String(q.lid).padStart(8)}${String(q.port).padStart(5)}[  ] "${q.node.name}" (Could be 12X )`,
    );
  }
  let cur: TopoNode | null = null;
  for (const p of f.ports) {
    if (p.node.type !== 'switch') continue;
    if (p.node !== cur) out.push(`Switch: ${p.node.guid} ${(cur = p.node).name}:`);
    const head = `${String(p.lid).padStart(12)}${String(p.port).padStart(5)}[  ] `;
    const q = p.peer;
    out.push(
      q
        ? `${head}${up}${String(q.lid).padStart(8)}${String(q.port).padStart(5)}[  ] "${q.node.name}" (Could be 12X )`
        : `${head}==(                Down/ Polling)==>             [  ] "" ( )`,
    );
  }
  return out.join('\n') + '\n';
}

function human(v: number, unit: string): string {
  const units = ['', 'K', 'M', 'G', 'T', 'P'];
  let x = v;
  let u = 0;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  return `${x.toFixed(3)}${units[u]}${unit}`;
}

function dataFields(xd: number, rd: number, xp: number, rp: number, full: boolean): string {
  const f =
    `[PortXmitData == ${xd} (${human(xd * 4, 'B')})] [PortRcvData == ${rd} ` +
    `(${human(rd * 4, 'B')})] [PortXmitPkts == ${xp} (${human(xp, '')})] [PortRcvPkts == ${rp} (${human(rp, '')})]`;
  return full
    ? `${f} [PortUnicastXmitPkts == ${xp} (${human(xp, '')})] [PortUnicastRcvPkts == ${rp} ` +
        `(${human(rp, '')})] [PortMulticastXmitPkts == 0 (0.000)] [PortMulticastRcvPkts == 0 (0.000)]`
    : f;
}

function summary(nodes: number, ports: number, bad: number, badPorts: number): string {
  return (
    `\n## Summary: ${nodes} nodes checked, ${bad} bad nodes found\n##          ${ports} ports ` +
    `checked, ${badPorts} ports have errors beyond threshold\n## Thresholds: \n## Suppressed:\n`
  );
}

/** `ibqueryerrors --counters`: data counters of every port of every node (down ports at 0). */
export function ibqeCountersText(f: BenchFabric, s: SweepState): string {
  const idx = new Map<BenchPort, number>(f.connected.map((p, i) => [p, i]));
  const out: string[] = [];
  let cur: TopoNode | null = null;
  for (const p of f.ports) {
    if (p.node !== cur) out.push(`Data Counters for ${(cur = p.node).guid} "${p.node.name}"`);
    const i = idx.get(p);
    const d = i === undefined ? { xd: 0, rd: 0, xp: 0, rp: 0 } : s.data(i);
    out.push(`   GUID ${p.node.guid} port ${p.port}: ${dataFields(d.xd, d.rd, d.xp, d.rp, true)}`);
  }
  return out.join('\n') + '\n' + summary(f.switches.length + f.cas.length, f.ports.length, 0, 0);
}

/** `ibqueryerrors --data --threshold-file /dev/null`: every port with any error counter > 0. */
export function ibqeErrorsText(f: BenchFabric, s: SweepState): string {
  const byNode = new Map<TopoNode, number[]>();
  for (const i of [...s.errors.keys()].sort((a, b) => a - b)) {
    const n = f.connected[i]!.node;
    let l = byNode.get(n);
    if (!l) byNode.set(n, (l = []));
    l.push(i);
  }
  const out: string[] = [];
  let badPorts = 0;
  const fields = (e: Record<string, number>) =>
    IBQE_ERROR_MODE_COUNTERS.filter((c) => e[c])
      .map((c) => `[${c} == ${e[c]}]`)
      .join(' ');
  for (const [n, list] of byNode) {
    const sw = n.type === 'switch';
    out.push(sw ? `Errors for ${n.guid} "${n.name}"` : `Errors for "${n.name}"`);
    if (sw) {
      const all: Record<string, number> = {};
      let xd = 0,
        rd = 0,
        xp = 0,
        rp = 0;
      for (const i of list) {
        for (const [k, v] of Object.entries(s.errors.get(i)!)) all[k] = (all[k] ?? 0) + v;
        const d = s.data(i);
        xd += d.xd;
        rd += d.rd;
        xp += d.xp;
        rp += d.rp;
      }
      out.push(`   GUID ${n.guid} port ALL: ${fields(all)} ${dataFields(xd, rd, xp, rp, false)}`);
    }
    for (const i of list) {
      const p = f.connected[i]!;
      const d = s.data(i);
      badPorts++;
      out.push(
        `   GUID ${portGuid(n)} port ${p.port}: ${fields(s.errors.get(i)!)} ` +
          `${dataFields(d.xd, d.rd, d.xp, d.rp, false)}`,
      );
    }
  }
  return out.join('\n') + '\n' + summary(f.switches.length + f.cas.length, f.ports.length, byNode.size, badPorts);
}
