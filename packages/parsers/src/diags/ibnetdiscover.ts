/**
 * `ibnetdiscover` topology file -> nodes, connected ports and links in the shared types.
 * Records are blank-line separated; whitespace is TABs in real output:
 *
 * ```
 * vendid=0x0
 * devid=0x0
 * sysimgguid=0xfc6a1c0300001110
 * switchguid=0xfc6a1c0300001110(fc6a1c0300001110)
 * Switch	36 "S-fc6a1c0300001110"		# "leaf-r0-01" base port 0 lid 5 lmc 0
 * [5]	"H-b83fd20300002050"[1](b83fd20300002051) 		# "dgx-0005 mlx5_0" lid 17 2xHDR
 * [17]	"S-fc6a1c0300001010"[1]		# "spine-01" lid 4 4xHDR s=4 w=2 v=4
 *
 * caguid=0xb83fd20300002050
 * Ca	1 "H-b83fd20300002050"		# "dgx-0005 mlx5_0"
 * [1](b83fd20300002051) 	"S-fc6a1c0300001110"[5]		# lid 17 lmc 0 "leaf-r0-01" lid 5 2xHDR
 * ```
 * Only connected ports are listed, so every port here has a peer and is at least physically up;
 * `state` is not printed and stays undefined. Width/speed come from the `4xHDR` token (`-f` adds
 * `s=/w=/v=/e=`, ignored). The `[ext]` port of `[1][2]` is accepted. Peer node GUIDs come from the
 * `S-`/`H-`/`R-` ids; ids of another form are resolved against node records at the end.
 *
 * Unusable: empty output, binary data, no node record. Port lines outside a record, unknown
 * lines and peers that cannot be resolved are warnings.
 */
import type { FabricLink, FabricNode, FabricPort, Guid, NodeType, PortRef } from '@ibwatch/fabric';
import { normalizeGuid } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import { parseSpeedName, parseWidth } from './values.ts';

export interface IbnetdiscoverResult {
  nodes: FabricNode[];
  /** Connected ports only. */
  ports: FabricPort[];
  links: FabricLink[];
  /** `# Topology file: generated on ...` and `# Initiated from node ... port ...`, when present. */
  generatedOn?: string;
  initiatedFrom?: { nodeGuid: Guid; portGuid: Guid };
}

const NODE_RE = /^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]*)"\s*(?:#\s*"(.*)"(.*))?$/;
const PORT_RE =
  /^\[(\d+)\](?:\[(\d+)\])?(?:\(([0-9a-fA-F]+)\))?\s+"([^"]*)"\[(\d+)\](?:\[\d+\])?(?:\(([0-9a-fA-F]+)\))?\s*#\s*(.*)$/;
const TYPES: Record<string, NodeType> = { Switch: 'switch', Ca: 'ca', Rt: 'router' };

interface PendingLink {
  self: PortRef;
  peerId: string;
  peerPort: number;
  line: number;
}

/** Line-at-a-time ibnetdiscover topology parser. */
export function createIbnetdiscoverParser(opts: ParseOptions = {}): LineParser<IbnetdiscoverResult> {
  const ctx = new LineContext('ibnetdiscover', opts.file);
  const nodes: FabricNode[] = [];
  const ports: FabricPort[] = [];
  const idToGuid = new Map<string, Guid>();
  const pending: PendingLink[] = [];
  const attrs: Record<string, string> = {};
  let current: FabricNode | undefined;
  let switchPortGuid: Guid | undefined;
  const out: Partial<IbnetdiscoverResult> = {};

  function nodeLine(m: RegExpExecArray, line: string): void {
    const type = TYPES[m[1]];
    const key = type === 'switch' ? 'switchguid' : type === 'ca' ? 'caguid' : 'rtguid';
    const idGuid = /^[SHR]-([0-9a-fA-F]+)$/.exec(m[3]);
    const raw = attrs[key]?.replace(/\(.*$/, '') ?? idGuid?.[1];
    if (raw === undefined) ctx.fail('node record without GUID', line);
    const n: FabricNode = { guid: ctx.guid(raw, line), type, description: m[4] ?? '', numPorts: Number(m[2]) };
    if (attrs.sysimgguid) n.systemImageGuid = ctx.guid(attrs.sysimgguid, line);
    if (attrs.vendid) n.vendorId = Number(attrs.vendid);
    if (attrs.devid) n.deviceId = Number(attrs.devid);
    const lid = /\blid (\d+)/.exec(m[5] ?? '');
    if (type === 'switch' && lid) n.lid = Number(lid[1]);
    const pg = /\(([0-9a-fA-F]+)\)/.exec(attrs.switchguid ?? '');
    switchPortGuid = type === 'switch' ? (pg ? ctx.guid(pg[1]) : n.guid) : undefined;
    nodes.push(n);
    idToGuid.set(m[3], n.guid);
    current = n;
  }

  function portLine(m: RegExpExecArray, line: string): void {
    if (!current) {
      ctx.unknown(line, 'port line outside a node record; skipped');
      return;
    }
    const comment = m[7];
    const token = /\b(\d+)x([A-Z0-9]+)\b/i.exec(comment.replace(/"[^"]*"/g, ''));
    const port: FabricPort = { nodeGuid: current.guid, portNum: Number(m[1]) };
    const pg = m[3] ?? (current.type === 'switch' ? switchPortGuid : undefined);
    if (pg) port.portGuid = ctx.guid(pg, line);
    // CA: `# lid 17 lmc 0 "leaf-r0-01" lid 5 2xHDR` (own LID first); switch ports use port 0's LID
    const ownLid = current.type === 'switch' ? undefined : /^lid (\d+)/.exec(comment.trim());
    if (ownLid) port.lid = Number(ownLid[1]);
    else if (current.lid !== undefined) port.lid = current.lid;
    if (token) {
      const w = parseWidth(`${token[1]}X`);
      const s = parseSpeedName(token[2]);
      if (w) port.widthActive = w;
      if (s) port.speedActive = s;
    } else ctx.warn('no width/speed token on port line');
    ports.push(port);
    pending.push({
      self: { nodeGuid: current.guid, portNum: port.portNum },
      peerId: m[4],
      peerPort: Number(m[5]),
      line: ctx.lineNo,
    });
  }

  return {
    feed(raw) {
      const line = ctx.next(raw);
      const t = line.trim();
      if (t === '') {
        current = undefined;
        for (const k of Object.keys(attrs)) delete attrs[k];
        return;
      }
      let m: RegExpExecArray | null;
      if (t.startsWith('#')) {
        if ((m = /^#\s*Topology file: generated on (.*)$/.exec(t))) out.generatedOn = m[1].trim();
        else if ((m = /^#\s*Initiated from node ([0-9a-fA-F]+) port ([0-9a-fA-F]+)/.exec(t))) {
          out.initiatedFrom = { nodeGuid: ctx.guid(m[1]), portGuid: ctx.guid(m[2]) };
        }
        return;
      }
      if ((m = /^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=(\S+)$/.exec(t))) {
        attrs[m[1]] = m[2];
        return;
      }
      if ((m = NODE_RE.exec(t))) nodeLine(m, line);
      else if ((m = PORT_RE.exec(t))) portLine(m, line);
      else ctx.unknown(line);
    },
    finish() {
      ctx.requireContent();
      if (nodes.length === 0) ctx.fail('no node record found', undefined, null);
      const links = new Map<string, FabricLink>();
      for (const p of pending) {
        const id = /^[SHR]-([0-9a-fA-F]+)$/.exec(p.peerId);
        const peerGuid = idToGuid.get(p.peerId) ?? (id ? normalizeGuid(id[1]) : undefined);
        if (peerGuid === undefined) {
          ctx.warn(`peer ${JSON.stringify(p.peerId)} is not a known node`, p.line);
          continue;
        }
        const peer: PortRef = { nodeGuid: peerGuid, portNum: p.peerPort };
        const selfFirst =
          p.self.nodeGuid < peer.nodeGuid || (p.self.nodeGuid === peer.nodeGuid && p.self.portNum <= peer.portNum);
        const [a, b] = selfFirst ? [p.self, peer] : [peer, p.self];
        const key = `${a.nodeGuid}/${a.portNum}-${b.nodeGuid}/${b.portNum}`;
        if (!links.has(key)) links.set(key, { a, b });
      }
      return ctx.result({ ...out, nodes, ports, links: [...links.values()] });
    },
  };
}

/** Parse ibnetdiscover topology output (text or lines). */
export function parseIbnetdiscover(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createIbnetdiscoverParser(opts), input);
}
