/**
 * The port/link line that iblinkinfo prints and ibqueryerrors `-r` repeats after `Link info:`.
 * Shapes seen in real output (infiniband-diags 44, ibsim lab):
 *
 * ```
 *            4    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       5   17[  ] "leaf-r0-01" (Could be 12X )
 *       0xb83fd20300002201      3    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>      14    8[  ] "leaf-r0- ...
 *            7    8[  ] ==(                Down/ Polling)==>             [  ] "" ( )
 * 0xb83fd20300002201 "               dgx-0032 mlx5_0"      3    1[  ] ==( 4X ... LinkUp)==>  0xfc6a1c0300001140 ...
 *        Link info:     21   1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  0xfc6a1c0300001130     22    1[ ...
 * ```
 * Speed is per lane (`53.125` = HDR); FDR10 prints `10.0 Gbps (FDR10)`.
 */
import type { Guid, LinkSpeed, LinkWidth, PhysState, PortState } from '@ibwatch/fabric';
import { normalizeGuid } from '@ibwatch/fabric';
import { parseLaneRate, parsePhysState, parsePortState, parseWidth } from './values.ts';

/** The far end of a link as iblinkinfo prints it. */
export interface LinkPeer {
  lid: number;
  portNum: number;
  /** External (front-panel) port number from `[ext]`, when printed. */
  extPort?: number;
  description: string;
  /** Port GUID of the peer: printed in `-l` mode and by `ibqueryerrors -r` only. */
  guid?: Guid;
}

/** One parsed link line. */
export interface LinkLine {
  /** GUID printed in front of the LID (CA port lines, every `-l` line). */
  guid?: Guid;
  /** Quoted node description in front of the LID (`-l` mode only), trimmed. */
  description?: string;
  lid: number;
  portNum: number;
  extPort?: number;
  state: PortState;
  physState: PhysState;
  widthActive?: LinkWidth;
  speedActive?: LinkSpeed;
  /** Lane rate in Gb/s exactly as printed (`53.125`), when the port is not Down. */
  laneGbps?: string;
  peer?: LinkPeer;
  /**
   * The `( ... )` hints, split at each `Could be`: e.g. `['12X', '53.125 Gbps']` for
   * `(Could be 12X Could be 53.125 Gbps)`. ibsim prints `Could be 12X` on every link (simulator
   * artefact); the parser reports hints as printed and judges nothing.
   */
  couldBe: string[];
}

// [GUID] ["desc"] LID port[ext] ==(link)==> [peer GUID] peer-LID peer-port[ext] "peer desc" (could be)
const LINE_RE = new RegExp(
  /^\s*(?:(0x[0-9a-fA-F]+)\s+)?(?:"(.*?)"\s+)?(\d+)\s+(\d+)\[([^\]]*)\]\s*==\((.*)\)==>\s*/.source +
    /(?:(0x[0-9a-fA-F]+)\s+)?(\d*)\s+(\d*)\[([^\]]*)\]\s+"(.*)"\s+\((.*)\)\s*$/.source,
);
const UP_RE = /^\s*(\d+X)\s+([\d.]+) Gbps(?: \((FDR10)\))?\s+(\w+)\/\s*(\w+)\s*$/;
const DOWN_RE = /^\s*(\w+)\/\s*(\w+)\s*$/;

function ext(raw: string): number | undefined {
  const t = raw.trim();
  return t === '' ? undefined : Number(t);
}

/** Parse one link line; undefined when the line does not have the link shape. */
export function parseLinkLine(line: string): LinkLine | undefined {
  const m = LINE_RE.exec(line);
  if (!m) return undefined;
  const [, guid, desc, lid, port, extP, mid, pGuid, pLid, pPort, pExt, pDesc, hints] = m;
  const out: LinkLine = {
    lid: Number(lid),
    portNum: Number(port),
    state: 'Unknown',
    physState: 'Unknown',
    couldBe: [],
  };
  if (guid !== undefined) {
    const g = normalizeGuid(guid);
    if (g === undefined) return undefined;
    out.guid = g;
  }
  if (desc !== undefined) out.description = desc.trim();
  const e = ext(extP);
  if (e !== undefined) out.extPort = e;
  const up = UP_RE.exec(mid);
  if (up) {
    out.widthActive = parseWidth(up[1]);
    out.laneGbps = up[2];
    out.speedActive = parseLaneRate(up[2], up[3] === 'FDR10');
    out.state = parsePortState(up[4]);
    out.physState = parsePhysState(up[5]);
  } else {
    const down = DOWN_RE.exec(mid);
    if (!down) return undefined;
    out.state = parsePortState(down[1]);
    out.physState = parsePhysState(down[2]);
  }
  if (pLid !== '' && pPort !== '') {
    const peer: LinkPeer = { lid: Number(pLid), portNum: Number(pPort), description: pDesc };
    const pe = ext(pExt);
    if (pe !== undefined) peer.extPort = pe;
    if (pGuid !== undefined) {
      const g = normalizeGuid(pGuid);
      if (g !== undefined) peer.guid = g;
    }
    out.peer = peer;
  }
  out.couldBe = hints
    .split('Could be')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return out;
}
