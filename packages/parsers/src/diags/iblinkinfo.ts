/**
 * `iblinkinfo` (default and `-l`) -> ports with state, width, lane speed, peer and the
 * `Could be` hints. Default output groups ports under node headers:
 *
 * ```
 * CA: dgx-0032 mlx5_0:
 *       0xb83fd20300002201      3    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      14    8[  ] "leaf-r0- ...
 * Switch: 0xfc6a1c0300001020 spine-02:
 *            7    8[  ] ==(                Down/ Polling)==>             [  ] "" ( )
 * ```
 * `-l` prints one self-contained line per port (`0x<guid> "<desc>" <lid> <port>... ==> 0x<peer guid> ...`).
 *
 * Identity: switch headers and `-l` lines carry GUIDs; CA headers carry only the description, so
 * a CA port is identified by the port GUID printed on its line (the *port* GUID, not the node
 * GUID — join with ibnetdiscover for that). Links are keyed by (LID, port), which is unique.
 *
 * Unusable: empty output, binary data. A line cut mid-way (`==( 4X   53.125 Gbps Activ`) or any
 * unknown line (`...`) is a warning and is skipped.
 */
import type { FabricPort, Guid, NodeType } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import { type LinkLine, parseLinkLine } from './link-line.ts';

/** One port as iblinkinfo reports it. */
export interface LinkInfoPort
  extends Omit<FabricPort, 'nodeGuid' | 'state' | 'physState'>,
    Omit<LinkLine, 'guid' | 'description'> {
  /** From the `CA:`/`Switch:` header; undefined for `-l` lines, which do not say. */
  nodeType?: NodeType;
  /** Switch GUID (switch header or `-l`); undefined for CA ports in default mode. */
  nodeGuid?: Guid;
  nodeDescription: string;
  lid: number;
}

/** A cable between two (LID, port) ends, listed once; `a` is the lower (lid, port). */
export interface LidLink {
  a: { lid: number; portNum: number };
  b: { lid: number; portNum: number };
}

export interface IblinkinfoResult {
  ports: LinkInfoPort[];
  links: LidLink[];
}

const HEADER_RE = /^(CA|Switch|Router):\s+(?:(0x[0-9a-fA-F]+)\s+)?(.*):\s*$/;
const NODE_TYPES: Record<string, NodeType> = { CA: 'ca', Switch: 'switch', Router: 'router' };

export interface IblinkinfoOptions extends ParseOptions {
  /**
   * Each port is handed to this as it is parsed, and neither ports nor links are collected
   * (the result lists none): a caller that folds the ports into records of its own then holds
   * no second copy of them (at 10k GPUs, 69k ports and their 31k links).
   */
  onPort?: (port: LinkInfoPort) => void;
}

/** Line-at-a-time iblinkinfo parser (default and `-l` output). */
export function createIblinkinfoParser(opts: IblinkinfoOptions = {}): LineParser<IblinkinfoResult> {
  const ctx = new LineContext('iblinkinfo', opts.file);
  const ports: LinkInfoPort[] = [];
  const links = new Map<string, LidLink>();
  const onPort = opts.onPort;
  let portLines = 0;
  let node: { type: NodeType; guid?: Guid; description: string } | undefined;

  function addPort(l: LinkLine): void {
    let nodeType: NodeType | undefined;
    let nodeGuid: Guid | undefined;
    let nodeDescription: string;
    let portGuid: Guid | undefined = l.guid;
    if (l.description !== undefined) {
      // `-l` line: the GUID is the port GUID (for a switch it equals the node GUID), and the
      // line does not say which kind of node it is.
      nodeType = undefined;
      nodeDescription = l.description;
    } else if (node) {
      nodeType = node.type;
      nodeDescription = node.description;
      nodeGuid = node.guid;
      // "Switch: 0xfc6a1c0300001020 spine-02:" then port lines without a GUID: switch ports
      // share the switch's port GUID.
      if (portGuid === undefined && node.type === 'switch') portGuid = node.guid;
    } else {
      ctx.warn('port line before any CA:/Switch: header; skipped');
      return;
    }
    const { guid: _g, description: _d, ...rest } = l;
    // Not `{ ...rest, nodeDescription }`: on Node 20 every object a spread makes in a hot loop
    // gets a hidden class of its own, ~200 bytes more per port (69k at 10k GPUs).
    const p: LinkInfoPort = Object.assign(rest, { nodeDescription });
    if (nodeType !== undefined) p.nodeType = nodeType;
    if (nodeGuid !== undefined) p.nodeGuid = nodeGuid;
    if (portGuid !== undefined) p.portGuid = portGuid;
    portLines++;
    if (onPort) {
      onPort(p);
      return;
    }
    ports.push(p);
    if (l.peer) {
      const x = { lid: l.lid, portNum: l.portNum };
      const y = { lid: l.peer.lid, portNum: l.peer.portNum };
      const [a, b] = x.lid < y.lid || (x.lid === y.lid && x.portNum <= y.portNum) ? [x, y] : [y, x];
      const key = `${a.lid}/${a.portNum}-${b.lid}/${b.portNum}`;
      if (!links.has(key)) links.set(key, { a, b });
    }
  }

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      const h = HEADER_RE.exec(line);
      if (h && !line.includes('==(')) {
        node = { type: NODE_TYPES[h[1]], description: h[3] };
        if (h[2] !== undefined) node.guid = ctx.guid(h[2], line);
        return;
      }
      const l = parseLinkLine(line);
      if (l) addPort(l);
      else if (line.includes('==(')) ctx.unknown(line, 'incomplete port line (output cut?)');
      else ctx.unknown(line);
    },
    finish() {
      ctx.requireContent();
      if (portLines === 0) ctx.fail('no port lines found', undefined, null);
      return ctx.result({ ports, links: [...links.values()] });
    },
  };
}

/** Parse iblinkinfo output (text or lines). */
export function parseIblinkinfo(input: LineSource, opts: IblinkinfoOptions = {}) {
  return runLineParser(createIblinkinfoParser(opts), input);
}
