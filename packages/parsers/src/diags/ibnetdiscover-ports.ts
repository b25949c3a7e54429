/**
 * `ibnetdiscover -p` (ports report) -> one entry per port and the list of links. rdma-core
 * format `"%2s %5d %2d 0x%016x %s %s"` then ` - <peer> ( '<desc>' - '<peer desc>' )` for a
 * connected port, or the quoted description alone for an unconnected one:
 *
 * ```
 * CA    31  1 0xb83fd203000020c1 4x EDR - SW     8  4 0xfc6a1c0300001120 ( 'dgx-0012 mlx5_0' - 'leaf-r0-02' )
 * SW     7 36 0xfc6a1c0300001020 4x SDR                                    'spine-02'
 * SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'
 * SW   479 22 0x0002c9020040f161 4x QDR                                   Infiniscale-IV Mellanox Technologies
 * ```
 * The GUID is the **port** GUID (a switch's port GUID is its node GUID; a CA's is not). Width
 * and speed of an *unconnected* port are what its PortInfo holds, which the spec leaves
 * undefined for a down port (ibsim and real switches print `4x SDR`, some `???`): they are kept
 * in `widthRaw`/`speedRaw` only, never as `widthActive`/`speedActive`. Descriptions keep their
 * spaces (`' 5FB0406-spine-IB02 '` is real); an old unquoted description is accepted.
 *
 * Unusable: empty output, binary data, no port line. Lines that are not port lines (e.g. cut
 * with fewer fields) are warnings.
 */
import type { Guid, LinkSpeed, LinkWidth } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import { parseSpeedName, parseWidth } from './values.ts';

export type DiagsNodeKind = 'CA' | 'SW' | 'RT';

/** One end as `ibnetdiscover -p` identifies it. */
export interface PortEnd {
  kind: DiagsNodeKind;
  lid: number;
  portNum: number;
  portGuid: Guid;
  description: string;
}

export interface IbnetdiscoverPortEntry extends PortEnd {
  /** As printed (`4x`); meaningful only when `peer` is set. */
  widthRaw: string;
  speedRaw: string;
  widthActive?: LinkWidth;
  speedActive?: LinkSpeed;
  peer?: PortEnd;
}

/** A link keyed by port GUID + port number; each cable listed once. */
export interface PortGuidLink {
  a: PortEnd;
  b: PortEnd;
  widthActive?: LinkWidth;
  speedActive?: LinkSpeed;
}

export interface IbnetdiscoverPortsResult {
  ports: IbnetdiscoverPortEntry[];
  links: PortGuidLink[];
}

const HEAD = String.raw`(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0[xX][0-9a-fA-F]+)`;
const CONNECTED_RE = new RegExp(`^\\s*${HEAD}\\s+(\\S+)\\s+(\\S+)\\s+-\\s+${HEAD}\\s+\\( '(.*)' - '(.*)' \\)\\s*$`);
const UNCONNECTED_RE = new RegExp(`^\\s*${HEAD}\\s+(\\S+)\\s+(\\S+)\\s+(?:'(.*)'|([^'\\s].*?))\\s*$`);

/** Line-at-a-time `ibnetdiscover -p` parser. */
export function createIbnetdiscoverPortsParser(opts: ParseOptions = {}): LineParser<IbnetdiscoverPortsResult> {
  const ctx = new LineContext('ibnetdiscover-p', opts.file);
  const ports: IbnetdiscoverPortEntry[] = [];
  const links = new Map<string, PortGuidLink>();
  const end = (m: string[], i: number, desc: string, line: string): PortEnd => ({
    kind: m[i] as DiagsNodeKind,
    lid: Number(m[i + 1]),
    portNum: Number(m[i + 2]),
    portGuid: ctx.guid(m[i + 3], line),
    description: desc,
  });

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      let m = CONNECTED_RE.exec(line);
      if (m) {
        const self = end(m, 1, m[11], line);
        const peer = end(m, 7, m[12], line);
        const e: IbnetdiscoverPortEntry = { ...self, widthRaw: m[5], speedRaw: m[6], peer };
        const w = parseWidth(m[5]);
        const s = parseSpeedName(m[6]);
        if (w) e.widthActive = w;
        if (s) e.speedActive = s;
        ports.push(e);
        const ka = `${self.portGuid}/${self.portNum}`;
        const kb = `${peer.portGuid}/${peer.portNum}`;
        const [a, b] = ka <= kb ? [self, peer] : [peer, self];
        const key = ka <= kb ? `${ka}-${kb}` : `${kb}-${ka}`;
        if (!links.has(key)) {
          const l: PortGuidLink = { a, b };
          if (w) l.widthActive = w;
          if (s) l.speedActive = s;
          links.set(key, l);
        }
        return;
      }
      m = UNCONNECTED_RE.exec(line);
      if (m && !line.includes(' - ')) {
        ports.push({ ...end(m, 1, m[7] ?? m[8] ?? '', line), widthRaw: m[5], speedRaw: m[6] });
        return;
      }
      ctx.unknown(line, 'not a port line');
    },
    finish() {
      ctx.requireContent();
      if (ports.length === 0) ctx.fail('no port lines found', undefined, null);
      return ctx.result({ ports, links: [...links.values()] });
    },
  };
}

/** Parse `ibnetdiscover -p` output (text or lines). */
export function parseIbnetdiscoverPorts(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createIbnetdiscoverPortsParser(opts), input);
}
