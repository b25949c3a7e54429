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

/** A character `trim` removes other than the space: tab..CR, and any from U+00A0 on (it may be one). */
const isOddEdge = (c: number): boolean => (c >= 9 && c <= 13) || c >= 0xa0;

/** Line-at-a-time .net_dump parser. */
export class NetDumpParser implements LineParser<NetDumpData> {
  private readonly t: TextDump;
  private readonly switches: NetDumpSwitch[] = [];
  private readonly guids = new GuidTable();
  private current: NetDumpSwitch | undefined;
  private cols: Cols | undefined;
  private width = 0;
  /** Where the port row's first `width - 1` colons are. */
  private colon = new Int32Array(0);

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
    if (this.current && this.cols === undefined) {
      const parts = line.split(':');
      if (parts[0].trim() === '#') {
        // Column header: select by name, never by position.
        const names = parts.map((p) => p.trim());
        const ix = (name: string): number => names.indexOf(name);
        this.cols = {
          label: ix('#'), port: ix('IB#'), state: ix('Sta'), phys: ix('PhysSta'), mtu: ix('MTU'), width: ix('LWA'),
          speed: ix('LSA'), fec: ix('FEC mode'), nguid: ix('Neighbor Guid'), nlabel: ix('N#'), nlid: ix('NLID'),
          ndesc: ix('Neighbor Description'),
        };
        this.width = names.length;
        this.colon = new Int32Array(this.width);
        return;
      }
    }
    if (!this.current || !this.cols) return this.t.warn(`line outside a switch block ignored`);
    this.port(line, this.cols);
  }

  /**
   * Cell `i` of the port row `line` (whose first `width - 1` colons are in `colon`), trimmed,
   * as `line.split(':')` then `trim()` gave it (the last cell keeps any further `:`), but with
   * one substring instead of an array of 13 and a trimmed copy of each: 30k rows at 10k GPUs.
   */
  private cell(line: string, i: number): string | undefined {
    if (i < 0) return undefined;
    const last = this.width - 1;
    const s0 = i === 0 ? 0 : this.colon[i - 1]! + 1;
    const e0 = i === last ? line.length : this.colon[i]!;
    let s = s0;
    let e = e0;
    while (s < e && line.charCodeAt(s) === 32) s++;
    while (e > s && line.charCodeAt(e - 1) === 32) e--;
    // Other whitespace at an edge (tab, NBSP, U+2028...): `trim` knows them all.
    if (s < e && (isOddEdge(line.charCodeAt(s)) || isOddEdge(line.charCodeAt(e - 1)))) return line.slice(s0, e0).trim();
    return line.slice(s, e);
  }

  private port(line: string, c: Cols): void {
    const colon = this.colon;
    const need = this.width - 1;
    let n = 0;
    for (let at = line.indexOf(':'); at !== -1 && n < need; at = line.indexOf(':', at + 1)) colon[n++] = at;
    if (n < need) return this.t.warn(`port row has ${n + 1} fields, header has ${this.width}`);
    const portText = this.cell(line, c.port);
    const portNum = parseIntField(portText);
    if (portNum === undefined) return this.t.warn(`bad port number ${JSON.stringify(portText)}`);
    const p: NetDumpPort = {
      portNum,
      state: STATE[this.cell(line, c.state) ?? ''] ?? 'Unknown',
      physState: PHYS[this.cell(line, c.phys) ?? ''] ?? 'Unknown',
    };
    const label = na(this.cell(line, c.label));
    if (label !== undefined) p.label = label;
    const mtu = parseIntField(na(this.cell(line, c.mtu)));
    if (mtu !== undefined) p.mtu = mtu;
    const width = widthFromText(this.cell(line, c.width) ?? '');
    if (width !== undefined) p.width = width;
    const speed = laneSpeedFromGbps(this.cell(line, c.speed) ?? '');
    if (speed !== undefined) p.speed = speed;
    const fec = na(this.cell(line, c.fec));
    if (fec !== undefined) p.fec = fec;
    const nguid = na(this.cell(line, c.nguid));
    const neighborGuid = nguid === undefined ? undefined : this.guids.get(nguid);
    if (neighborGuid !== undefined) p.neighborGuid = neighborGuid;
    const nlabel = na(this.cell(line, c.nlabel));
    if (nlabel !== undefined) p.neighborLabel = nlabel;
    const nlid = parseIntField(na(this.cell(line, c.nlid)));
    if (nlid !== undefined) p.neighborLid = nlid;
    const desc = na(this.cell(line, c.ndesc));
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
