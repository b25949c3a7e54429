/**
 * ibdiagnet2.lst (same format as OpenSM's opensm-subnet.lst): one line per link, both ends:
 *
 *   { CA Ports:01 SystemGUID:5c257303009ab1c0 NodeGUID:5c257303009ab1c0 PortGUID:5c257303009ab1c0
 *     VenID:000002c9 DevID:1021 Rev:00000000 {is-north-7-compute-12 mlx5_0} LID:00b5 PN:01 }
 *   { SW Ports:41 ... {Quantum-2 Mellanox Technologies} LID:00b6 PN:0c } PHY=4x LOG=ACT SPD=100
 *
 * (one line in the file). Ports, LID, PN, DevID and VenID are HEX (`Ports:41` = 65 ports). The
 * node description in inner braces is absent in old files. SPD is the lane speed in Gb/s.
 */
import type { Guid, LinkSpeed, LinkWidth, NodeType, ParseResult } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { laneSpeedFromGbps, widthFromText } from './speed-bits.ts';
import { TextDump } from './text-dump.ts';
import { parseGuidField } from '../common/guids.ts';
import type { DumpHeader } from './values.ts';

export const LST_FORMAT = 'ibdiagnet2.lst';

export interface LstEnd {
  type: NodeType;
  numPorts: number;
  systemImageGuid?: Guid;
  nodeGuid: Guid;
  portGuid?: Guid;
  vendorId: number;
  deviceId: number;
  description?: string;
  lid: number;
  portNum: number;
}

export interface LstLink {
  a: LstEnd;
  b: LstEnd;
  width?: LinkWidth;
  /** `LOG=` logical state as printed (`ACT`, `INI`, `DOWN`...). */
  state: string;
  speed?: LinkSpeed;
}

export interface LstData {
  header: DumpHeader;
  links: LstLink[];
}

const END = new RegExp(
  /\{ (CA|SW|RT) Ports:([0-9a-fA-F]+) SystemGUID:([0-9a-fA-F]+) NodeGUID:([0-9a-fA-F]+) /.source +
    /PortGUID:([0-9a-fA-F]+) VenID:([0-9a-fA-F]+) DevID:([0-9a-fA-F]+) Rev:[0-9a-fA-F]+ /.source +
    /(?:\{(.*?)\} )?\s*LID:([0-9a-fA-F]+) PN:([0-9a-fA-F]+) \}/.source,
  'g',
);
const TAIL = /PHY=(\S+) LOG=(\S+) SPD=(\S+)\s*$/;
const TYPE: Record<string, NodeType> = { CA: 'ca', SW: 'switch', RT: 'router' };

function toEnd(m: RegExpExecArray): LstEnd | undefined {
  const nodeGuid = parseGuidField(m[4]);
  if (!nodeGuid) return undefined;
  const end: LstEnd = {
    type: TYPE[m[1]],
    numPorts: parseInt(m[2], 16),
    nodeGuid,
    vendorId: parseInt(m[6], 16),
    deviceId: parseInt(m[7], 16),
    lid: parseInt(m[9], 16),
    portNum: parseInt(m[10], 16),
  };
  const sys = parseGuidField(m[3]);
  if (sys) end.systemImageGuid = sys;
  const pg = parseGuidField(m[5]);
  if (pg) end.portGuid = pg;
  if (m[8] !== undefined) end.description = m[8];
  return end;
}

/** Line-at-a-time .lst parser. */
export class LstParser implements LineParser<LstData> {
  private readonly t: TextDump;
  private readonly links: LstLink[] = [];

  constructor(options: { file?: string; format?: string } = {}) {
    this.t = new TextDump(options.format ?? LST_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line)) return;
    const ends = [...line.matchAll(END)];
    const tail = TAIL.exec(line);
    const a = ends[0] && toEnd(ends[0]);
    const b = ends[1] && toEnd(ends[1]);
    if (ends.length !== 2 || !tail || !a || !b) return this.t.warn('unrecognised link line ignored');
    this.links.push({ a, b, width: widthFromText(tail[1]), state: tail[2], speed: laneSpeedFromGbps(tail[3]) });
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<LstData> {
    // opensm-subnet.lst has no header/trailer; ibdiagnet's .lst has both.
    this.t.finishChecks(this.t.header.runningTimestamp !== undefined);
    return { value: { header: this.t.header, links: this.links }, warnings: this.t.warnings };
  }
}

/** Parse a whole .lst given as text or lines. */
export function parseLst(input: LineSource, options?: { file?: string }): ParseResult<LstData> {
  return runLineParser(new LstParser(options), input);
}
