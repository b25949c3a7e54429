/**
 * ibdiagnet2.net_dump: one block per SWITCH (HCAs appear only as neighbours). It is the only
 * file that lists DOWN ports: db_csv PORTS/PM_INFO omit them in ibdiagnet 2.10.
 *
 *   "Quantum-2 Mellanox Technologies", Mellanox, 0xb0cf0e0300e5b940, LID 24
 *     #          : IB# : Sta  : PhysSta    : MTU : LWA     : LSA     : FEC mode            : Retran : Neighbor Guid      : N#         : NLID : Neighbor Description
 *     1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100     : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f60 : B184D0F0/0/0/1 : 156  : "is-north-7-compute-1 mlx5_10"
 *     1/17/1     : 33  : DOWN : POLL       : N/A : N/A     : N/A     : N/A                 : N/A    :                    :            :      :
 *
 * Rows split on `:`; the neighbour description is last and may itself hold `:`
 * (`MF0;ib-switch-sequoia:MQM9700/U1`), so everything after the last column separator is kept.
 */
import type { Guid, LinkSpeed, LinkWidth, ParseResult, PhysState, PortState } from '@ibwatch/fabric';
import { runLineParser } from './line-source.ts';
import type { LineParser, LineSource } from './line-source.ts';
import { laneSpeedFromGbps, widthFromText } from './speed-bits.ts';
import { TextDump } from './text-dump.ts';
import { GuidTable } from './guid-table.ts';
import { parseIntField } from './values.ts';
import type { DumpHeader } from './values.ts';

export const NET_DUMP_FORMAT = 'ibdiagnet2.net_dump';

export interface NetDumpPort {
  portNum: number;
  /** Front-panel label (`1/17/2`), absent when printed `N/A`. */
  label?: string;
  state: PortState;
  physState: PhysState;
  mtu?: number;
  width?: LinkWidth;
  speed?: LinkSpeed;
  fec?: string;
  neighborGuid?: Guid;
  /** Neighbour's port label: switch label, number, or a PCI label `B184D0F0/0/0/1` for HCAs. */
  neighborLabel?: string;
  neighborLid?: number;
  neighborDescription?: string;
}

export interface NetDumpSwitch {
  guid: Guid;
  description: string;
  vendor?: string;
  lid?: number;
  ports: NetDumpPort[];
}

export interface NetDumpData {
  header: DumpHeader;
  switches: NetDumpSwitch[];
}

const STATE: Record<string, PortState> = { ACT: 'Active', DOWN: 'Down', INIT: 'Initialize', ARM: 'Armed' };
const PHYS: Record<string, PhysState> = {
  'LINK UP': 'LinkUp', POLL: 'Polling', DISABLED: 'Disabled', SLEEP: 'Sleep', 'PORT CONF TRAIN': 'PortConfigurationTraining',
  'LINK ERR RECOVERY': 'LinkErrorRecovery', 'PHY TEST': 'PhyTest',
};
const BLOCK = /^"(.*)",\s*([^,]*),\s*(0x[0-9a-fA-F]+),\s*LID\s+(\d+)\s*$/;
const na = (s: string | undefined): string | undefined => (s === undefined || s === '' || s === 'N/A' ? undefined : s);

/** Column positions of a switch block's `#  : IB# : Sta ...` header, -1 when absent. */
interface Cols {
  label: number; port: number; state: number; phys: number; mtu: number; width: number; speed: number;
  fec: number; nguid: number; nlabel: number; nlid: number; ndesc: number;
}

const cell = (parts: string[], i: number): string | undefined => (i < 0 ? undefined : parts[i].trim());

/** Line-at-a-time .net_dump parser. */
export class NetDumpParser implements LineParser<NetDumpData> {
  private readonly t: TextDump;
  private readonly switches: NetDumpSwitch[] = [];
  private readonly guids = new GuidTable();
  private current: NetDumpSwitch | undefined;
  private cols: Cols | undefined;
  private width = 0;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(NET_DUMP_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line)) return;
    // Only a block header starts with a quote; the regex is not tried on the 64 port rows.
    const m = line.charCodeAt(0) === 34 ? BLOCK.exec(line) : null;
    if (m) {
      const guid = this.guids.get(m[3]);
      if (!guid) return this.t.warn(`bad switch GUID ${JSON.stringify(m[3])}`);
      this.current = { guid, description: m[1], vendor: m[2].trim() || undefined, lid: Number(m[4]), ports: [] };
      this.switches.push(this.current);
      this.cols = undefined;
      return;
    }
    const parts = line.split(':');
    if (this.current && this.cols === undefined && parts[0].trim() === '#') {
      // Column header: select by name, never by position.
      const names = parts.map((p) => p.trim());
      const ix = (name: string): number => names.indexOf(name);
      this.cols = {
        label: ix('#'), port: ix('IB#'), state: ix('Sta'), phys: ix('PhysSta'), mtu: ix('MTU'), width: ix('LWA'),
        speed: ix('LSA'), fec: ix('FEC mode'), nguid: ix('Neighbor Guid'), nlabel: ix('N#'), nlid: ix('NLID'),
        ndesc: ix('Neighbor Description'),
      };
      this.width = names.length;
      return;
    }
    if (!this.current || !this.cols) return this.t.warn(`line outside a switch block ignored`);
    this.port(parts, this.cols);
  }

  private port(parts: string[], c: Cols): void {
    if (parts.length < this.width) return this.t.warn(`port row has ${parts.length} fields, header has ${this.width}`);
    if (parts.length > this.width) parts = [...parts.slice(0, this.width - 1), parts.slice(this.width - 1).join(':')];
    const portText = cell(parts, c.port);
    const portNum = parseIntField(portText);
    if (portNum === undefined) return this.t.warn(`bad port number ${JSON.stringify(portText)}`);
    const p: NetDumpPort = {
      portNum,
      state: STATE[cell(parts, c.state) ?? ''] ?? 'Unknown',
      physState: PHYS[cell(parts, c.phys) ?? ''] ?? 'Unknown',
    };
    const label = na(cell(parts, c.label));
    if (label !== undefined) p.label = label;
    const mtu = parseIntField(na(cell(parts, c.mtu)));
    if (mtu !== undefined) p.mtu = mtu;
    const width = widthFromText(cell(parts, c.width) ?? '');
    if (width !== undefined) p.width = width;
    const speed = laneSpeedFromGbps(cell(parts, c.speed) ?? '');
    if (speed !== undefined) p.speed = speed;
    const fec = na(cell(parts, c.fec));
    if (fec !== undefined) p.fec = fec;
    const nguid = na(cell(parts, c.nguid));
    const neighborGuid = nguid === undefined ? undefined : this.guids.get(nguid);
    if (neighborGuid !== undefined) p.neighborGuid = neighborGuid;
    const nlabel = na(cell(parts, c.nlabel));
    if (nlabel !== undefined) p.neighborLabel = nlabel;
    const nlid = parseIntField(na(cell(parts, c.nlid)));
    if (nlid !== undefined) p.neighborLid = nlid;
    const desc = na(cell(parts, c.ndesc));
    if (desc !== undefined) {
      // `"is-north-7-compute-1 mlx5_10"`: the quotes are the tool's, not the name's.
      const quoted = desc.length >= 2 && desc.charCodeAt(0) === 34 && desc.charCodeAt(desc.length - 1) === 34;
      p.neighborDescription = quoted ? desc.slice(1, -1) : desc;
    }
    this.current!.ports.push(p);
  }

  finish(): ParseResult<NetDumpData> {
    this.t.finishChecks();
    return { value: { header: this.t.header, switches: this.switches }, warnings: this.t.warnings };
  }
}

/** Parse a whole .net_dump given as text or lines. */
export function parseNetDump(input: LineSource, options?: { file?: string }): ParseResult<NetDumpData> {
  return runLineParser(new NetDumpParser(options), input);
}
