/**
 * ibdiagnet2.net_dump: one block per SWITCH (HCAs appear only as neighbours). It is the only
 * file that lists DOWN ports: db_csv PORTS/PM_INFO omit them in ibdiagnet 2.10.
 *
 *   "Quantum-2 Mellanox Technologies", Mellanox, 0xb0cf0e0300e5b940, LID 24
 *     #          : IB# : Sta  : PhysSta    : MTU : LWA     : LSA     : FEC mode            : Retran :
 *         Neighbor Guid      : N#         : NLID : Neighbor Description
 *     1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100     : RS_FEC_544_514      : NO-RTR :
 *         0x5c25730300c06f60 : B184D0F0/0/0/1 : 156  : "is-north-7-compute-1 mlx5_10"
 *     1/17/1     : 33  : DOWN : POLL       : N/A : N/A     : N/A     : N/A                 : N/A    :
 *                            :            :      :
 *   (each row is one line, wrapped here after `Retran :`)
 *
 * Rows split on `:`; the neighbour description is last and may itself hold `:`
 * (`MF0;ib-switch-sequoia:MQM9700/U1`), so everything after the last column separator is kept.
 */
import type { Guid, LinkSpeed, LinkWidth, ParseResult, PhysState, PortState } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { laneSpeedFromGbps, widthFromText } from './speed-bits.ts';
import { TextDump } from './text-dump.ts';
import { ByteCells, LineCells, na } from './net-dump-cells.ts';
import type { PortCells } from './net-dump-cells.ts';
import { GuidTable } from '../common/guids.ts';
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

// Maps, not object literals: a cell text is not an internalised string, and a keyed property
// load with one looks it up in V8's string table first (30k rows).
const STATE = new Map<string, PortState>([
  ['ACT', 'Active'],
  ['DOWN', 'Down'],
  ['INIT', 'Initialize'],
  ['ARM', 'Armed'],
]);
const PHYS = new Map<string, PhysState>([
  ['LINK UP', 'LinkUp'],
  ['POLL', 'Polling'],
  ['DISABLED', 'Disabled'],
  ['SLEEP', 'Sleep'],
  ['PORT CONF TRAIN', 'PortConfigurationTraining'],
  ['LINK ERR RECOVERY', 'LinkErrorRecovery'],
  ['PHY TEST', 'PhyTest'],
]);

/** `decode(text)` remembered per text: a fabric prints a handful of widths and speeds. */
class Memo<T> {
  private readonly seen = new Map<string, T | undefined>();
  constructor(private readonly decode: (text: string) => T | undefined) {}
  of(text: string): T | undefined {
    if (this.seen.has(text)) return this.seen.get(text);
    const v = this.decode(text);
    if (this.seen.size < 256) this.seen.set(text, v);
    return v;
  }
}
const BLOCK = /^"(.*)",\s*([^,]*),\s*(0x[0-9a-fA-F]+),\s*LID\s+(\d+)\s*$/;

/** Column positions of a switch block's `#  : IB# : Sta ...` header, -1 when absent. */
interface Cols {
  label: number;
  port: number;
  state: number;
  phys: number;
  mtu: number;
  width: number;
  speed: number;
  fec: number;
  nguid: number;
  nlabel: number;
  nlid: number;
  ndesc: number;
}

export interface NetDumpOptions {
  /** File name for messages. */
  file?: string;
  /**
   * `ports`: of each port row only what a port record holds (number, label, state, physical
   * state, width, speed), not its MTU, FEC and neighbour: for a directory whose db_csv has the
   * links, where the snapshot takes nothing else from this file. Default `all`.
   */
  fields?: 'all' | 'ports';
}

/** Line-at-a-time .net_dump parser (port rows read in place from bytes when it can). */
export class NetDumpParser implements LineParser<NetDumpData> {
  private readonly t: TextDump;
  private readonly switches: NetDumpSwitch[] = [];
  private readonly guids = new GuidTable();
  private current: NetDumpSwitch | undefined;
  private cols: Cols | undefined;
  private width = 0;
  /** Where the port row's first `width - 1` colons are. */
  private colon = new Int32Array(0);
  private readonly widths = new Memo<LinkWidth>(widthFromText);
  private readonly speeds = new Memo<LinkSpeed>(laneSpeedFromGbps);
  private readonly lineCells: LineCells;
  private readonly byteCells: ByteCells;

  private readonly portsOnly: boolean;

  constructor(options: NetDumpOptions = {}) {
    this.t = new TextDump(NET_DUMP_FORMAT, options.file);
    this.portsOnly = options.fields === 'ports';
    this.lineCells = new LineCells(this.guids);
    this.byteCells = new ByteCells(this.guids);
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
          label: ix('#'),
          port: ix('IB#'),
          state: ix('Sta'),
          phys: ix('PhysSta'),
          mtu: ix('MTU'),
          width: ix('LWA'),
          speed: ix('LSA'),
          fec: ix('FEC mode'),
          nguid: ix('Neighbor Guid'),
          nlabel: ix('N#'),
          nlid: ix('NLID'),
          ndesc: ix('Neighbor Description'),
        };
        this.width = names.length;
        this.colon = new Int32Array(this.width);
        return;
      }
    }
    if (!this.current || !this.cols) return this.t.warn(`line outside a switch block ignored`);
    const colon = this.colon;
    const need = this.width - 1;
    let n = 0;
    for (let at = line.indexOf(':'); at !== -1 && n < need; at = line.indexOf(':', at + 1)) colon[n++] = at;
    if (n < need) return this.t.warn(`port row has ${n + 1} fields, header has ${this.width}`);
    this.port(this.lineCells.of(line, colon, this.width), this.cols);
  }

  /**
   * Port rows of a switch block read from the bytes (30k of the 32k lines at 10k GPUs): no
   * string per line and per cell, only interned cell texts. A line of anything but printable
   * ASCII, or one that is not a plain port row (`#`, `"`, blank, too few `:`), is left to
   * `feed`, so both paths read every row the same way.
   */
  takeLines(bytes: Uint8Array, from: number): number {
    const c = this.cols;
    if (this.current === undefined || c === undefined) return from;
    const colon = this.colon;
    const need = this.width - 1;
    // Every read is kept inside `bytes`: once a loop has read past the end (`undefined`), V8
    // compiles its byte loads to return a number or undefined, and every compare slows down.
    const len = bytes.length;
    let pos = from;
    while (pos < len) {
      const b0 = bytes[pos]!;
      if (b0 === 35 /* # */ || b0 === 34 /* " */ || b0 === 10 || b0 === 13) return pos;
      let n = 0;
      let i = pos;
      let b = b0;
      if (b < 0x20 || b > 0x7e) return pos;
      for (;;) {
        if (b === 58 /* : */ && n < need) colon[n++] = i;
        if (++i === len) return pos;
        b = bytes[i]!;
        if (b < 0x20 || b > 0x7e) break;
      }
      // The row ends at `\n` or `\r\n`; anything else (a control byte, non-ASCII, the end of
      // the chunk) and a row short of columns go to `feed`.
      const crlf = b === 13 && i + 1 < len && bytes[i + 1] === 10;
      if (n < need || (b !== 10 && !crlf)) return pos;
      this.t.countRow();
      this.port(this.byteCells.of(bytes, pos, i, colon, this.width), c);
      pos = crlf ? i + 2 : i + 1;
    }
    return pos;
  }

  private port(cells: PortCells, c: Cols): void {
    const portNum = cells.int(c.port);
    if (portNum === undefined) return this.t.warn(`bad port number ${JSON.stringify(cells.text(c.port))}`);
    const state = STATE.get(cells.text(c.state) ?? '') ?? 'Unknown';
    const physState = PHYS.get(cells.text(c.phys) ?? '') ?? 'Unknown';
    const label = na(cells.text(c.label));
    const width = this.widths.of(cells.text(c.width) ?? '');
    const speed = this.speeds.of(cells.text(c.speed) ?? '');
    // `fields: 'ports'` leaves the rest unread (undefined): the record below then has none of it.
    const all = !this.portsOnly;
    const mtu = all ? cells.int(c.mtu) : undefined;
    const fec = all ? na(cells.text(c.fec)) : undefined;
    const neighborGuid = all ? cells.guid(c.nguid) : undefined;
    const neighborLabel = all ? na(cells.text(c.nlabel)) : undefined;
    const neighborLid = all ? cells.int(c.nlid) : undefined;
    // `"is-north-7-compute-1 mlx5_10"`: the quotes are the tool's, not the name's.
    const neighborDescription = all ? cells.description(c.ndesc) : undefined;
    if (
      label !== undefined &&
      mtu !== undefined &&
      width !== undefined &&
      speed !== undefined &&
      fec !== undefined &&
      neighborGuid !== undefined &&
      neighborLabel !== undefined &&
      neighborLid !== undefined &&
      neighborDescription !== undefined
    ) {
      // A linked port has every field: one literal, allocated once with its fields inside it.
      this.current!.ports.push({
        portNum,
        state,
        physState,
        label,
        mtu,
        width,
        speed,
        fec,
        neighborGuid,
        neighborLabel,
        neighborLid,
        neighborDescription,
      });
      return;
    }
    if (!all && label !== undefined && width !== undefined && speed !== undefined) {
      // The same record as below, allocated at once (248k port rows at 45k GPUs).
      this.current!.ports.push({ portNum, state, physState, label, width, speed });
      return;
    }
    const p: NetDumpPort = { portNum, state, physState };
    if (label !== undefined) p.label = label;
    if (mtu !== undefined) p.mtu = mtu;
    if (width !== undefined) p.width = width;
    if (speed !== undefined) p.speed = speed;
    if (fec !== undefined) p.fec = fec;
    if (neighborGuid !== undefined) p.neighborGuid = neighborGuid;
    if (neighborLabel !== undefined) p.neighborLabel = neighborLabel;
    if (neighborLid !== undefined) p.neighborLid = neighborLid;
    if (neighborDescription !== undefined) p.neighborDescription = neighborDescription;
    this.current!.ports.push(p);
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<NetDumpData> {
    this.t.finishChecks();
    return { value: { header: this.t.header, switches: this.switches }, warnings: this.t.warnings };
  }
}

/** Parse a whole .net_dump given as text or lines. */
export function parseNetDump(input: LineSource, options?: NetDumpOptions): ParseResult<NetDumpData> {
  return runLineParser(new NetDumpParser(options), input);
}
