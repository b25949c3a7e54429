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
import { parseGuidField, parseIntField } from './values.ts';
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

/** Line-at-a-time .net_dump parser. */
export class NetDumpParser implements LineParser<NetDumpData> {
  private readonly t: TextDump;
  private readonly switches: NetDumpSwitch[] = [];
  private current: NetDumpSwitch | undefined;
  private cols: Record<string, number> | undefined;
  private width = 0;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(NET_DUMP_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line)) return;
    const m = BLOCK.exec(line);
    if (m) {
      const guid = parseGuidField(m[3]);
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
      this.cols = {};
      names.forEach((n, i) => { this.cols![n] = i; });
      this.width = names.length;
      return;
    }
    if (!this.current || !this.cols) return this.t.warn(`line outside a switch block ignored`);
    this.port(parts);
  }

  private port(parts: string[]): void {
    const c = this.cols!;
    if (parts.length < this.width) return this.t.warn(`port row has ${parts.length} fields, header has ${this.width}`);
    if (parts.length > this.width) parts = [...parts.slice(0, this.width - 1), parts.slice(this.width - 1).join(':')];
    const get = (name: string): string | undefined => (c[name] === undefined ? undefined : parts[c[name]].trim());
    const portNum = parseIntField(get('IB#'));
    if (portNum === undefined) return this.t.warn(`bad port number ${JSON.stringify(get('IB#'))}`);
    const desc = na(get('Neighbor Description'));
    const p: NetDumpPort = {
      portNum,
      state: STATE[get('Sta') ?? ''] ?? 'Unknown',
      physState: PHYS[get('PhysSta') ?? ''] ?? 'Unknown',
    };
    const set = <K extends keyof NetDumpPort>(k: K, v: NetDumpPort[K] | undefined): void => { if (v !== undefined) p[k] = v; };
    set('label', na(get('#')));
    set('mtu', parseIntField(na(get('MTU'))));
    set('width', widthFromText(get('LWA') ?? ''));
    set('speed', laneSpeedFromGbps(get('LSA') ?? ''));
    set('fec', na(get('FEC mode')));
    set('neighborGuid', parseGuidField(na(get('Neighbor Guid'))));
    set('neighborLabel', na(get('N#')));
    set('neighborLid', parseIntField(na(get('NLID'))));
    set('neighborDescription', desc?.replace(/^"(.*)"$/, '$1'));
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
