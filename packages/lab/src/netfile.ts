/**
 * Writers for the files ibsim and OpenSM read: the ibsim netfile, the ftree roots file, and the
 * ibsim size limits (`-N/-S/-P`) a topology needs. Pure: text out, no I/O.
 */
import type { LinkSpeed, LinkWidth } from '@ibwatch/fabric';
import { portTable, type Topology } from './topology.ts';

/** Speeds ibsim 0.10 parses in a port comment (`sim_net.c`); NDR and XDR are not among them. */
const IBSIM_SPEEDS: ReadonlySet<LinkSpeed> = new Set<LinkSpeed>(['SDR', 'DDR', 'QDR', 'FDR', 'EDR', 'HDR', 'FDR10']);

/** `4xHDR` — the width/speed token ibsim reads from an ibnetdiscover-style port comment. */
export function ibsimRateToken(width: LinkWidth, speed: LinkSpeed): string {
  if (!IBSIM_SPEEDS.has(speed)) {
    // ibsim 0.10 prints "ibwarn: cannot parse speed / invalid speed" and silently runs the link at 4X QDR.
    throw new Error(
      `ibsim 0.10 cannot simulate ${speed}; use HDR (or lower) in the lab and configure the expected rate`,
    );
  }
  return `${width.toLowerCase()}${speed}`;
}

function assertNodeId(name: string): void {
  // sim_net.c splits on these characters; the console line limit is 127 characters.
  if (/["#@]/.test(name) || name.length > 60) throw new Error(`node name not usable by ibsim: ${JSON.stringify(name)}`);
}

/**
 * The ibsim netfile. Each node gets an explicit `switchguid=`/`caguid=` line so GUIDs are ours,
 * not ibsim's file-order counter; every cable is written on both port lines with the rate comment
 * (`[1] "leaf-r0-01"[1] # lid 0 4xHDR`), because ibsim re-derives the active rate per end.
 */
export function writeNetfile(topo: Topology): string {
  const table = portTable(topo);
  const rates = new Map<string, string>();
  const key = (node: string, port: number): string => `${node}\u0000${port}`;
  for (const l of topo.links) {
    if (l.width || l.speed) {
      const tok = ibsimRateToken(l.width ?? topo.width, l.speed ?? topo.speed);
      rates.set(key(l.a.node, l.a.port), tok);
      rates.set(key(l.b.node, l.b.port), tok);
    }
  }
  const dflt = ibsimRateToken(topo.width, topo.speed);
  const out: string[] = [
    `# ibwatch lab netfile: ${topo.shape.gpus} GPUs, ${topo.shape.tiers} tiers, radix ` +
      `${topo.shape.radix}, ${topo.width} ${topo.speed}`,
    '',
  ];
  for (const n of topo.nodes) {
    assertNodeId(n.name);
    const ports = table.get(n.name) ?? [];
    if (n.type === 'switch') {
      out.push(`switchguid=${n.guid}`);
      out.push(`Switch ${n.numPorts} "${n.name}" # "${n.name}" enhanced port 0 lid 0 lmc 0`);
    } else {
      out.push(`caguid=${n.guid}`);
      out.push(`Ca ${n.numPorts} "${n.name}" # "${n.name}"`);
    }
    for (let p = 1; p < ports.length; p++) {
      const peer = ports[p];
      if (!peer) continue;
      out.push(`[${p}] "${peer.node}"[${peer.port}] # lid 0 ${rates.get(key(n.name, p)) ?? dflt}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The ftree roots file: one top-tier switch GUID per line (`opensm -R ftree -a FILE`). */
export function writeRootsFile(topo: Topology): string {
  return topo.roots.join('\n') + '\n';
}

/** ibsim capacity flags. */
export interface IbsimLimits {
  nodes: number;
  switches: number;
  ports: number;
}

/**
 * `-N/-S/-P` for a topology. ibsim's defaults are 2048 nodes, 256 switches and 13312 ports, and
 * the port limit does not grow with -N/-S, so all three are sized (with headroom, never below the
 * defaults). Ports count port 0 of every node too.
 */
export function ibsimLimits(topo: Topology): IbsimLimits {
  let switches = 0;
  let ports = 0;
  for (const n of topo.nodes) {
    if (n.type === 'switch') switches++;
    ports += n.numPorts + 1;
  }
  const up = (v: number, min: number): number => Math.max(min, Math.ceil((v * 1.25) / 64) * 64);
  return { nodes: up(topo.nodes.length, 2048), switches: up(switches, 256), ports: up(ports, 13312) };
}
