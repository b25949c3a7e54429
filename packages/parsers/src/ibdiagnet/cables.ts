/**
 * ibdiagnet2.cables (needs `--get_cable_info`): one block per cable end, `Key: value` lines:
 *
 *   Port=1 Lid=0x0018 GUID=0xb0cf0e0300e5b940 Port Name=Sb0cf0e0300e5b940/Nb0cf0e0300e5b940/P1/1/1
 *   -------------------------------------------------------
 *   Vendor: FS
 *   PN: OSFP-SR8-800G
 *   Length: NA
 *   Temperature: 58C
 *
 * Values may contain `:` (`Attenuation(5,7,12,25): NA NA NA NA`), so lines split on the first
 * `: `. Every key is kept in `fields`; the common ones also fill a `CableInfo`.
 */
import type { CableInfo, Guid, ParseResult } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { TextDump } from './text-dump.ts';
import { parseGuidField } from '../common/guids.ts';
import { parseIntField } from './values.ts';
import type { DumpHeader } from './values.ts';

export const CABLES_FORMAT = 'ibdiagnet2.cables';

export interface CableBlock {
  /** `GUID=`: node GUID for switch ports, port GUID for CA ports. */
  guid: Guid;
  portNum: number;
  lid?: number;
  portName?: string;
  fields: Record<string, string>;
}

export interface CablesData {
  header: DumpHeader;
  cables: CableBlock[];
}

const BLOCK = /^Port=(\d+)\s+Lid=(\S+)\s+GUID=(\S+)(?:\s+Port Name=(.*))?$/;
const known = (v: string | undefined): string | undefined => (v && v !== 'NA' && v !== 'N/A' ? v : undefined);

/** Line-at-a-time .cables parser. */
export class CablesParser implements LineParser<CablesData> {
  private readonly t: TextDump;
  private readonly cables: CableBlock[] = [];
  private current: CableBlock | undefined;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(CABLES_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line) || line.startsWith('---')) return;
    if (line.startsWith('Port=')) {
      const m = BLOCK.exec(line);
      const guid = m ? parseGuidField(m[3]) : undefined;
      this.current = undefined;
      if (!m || !guid) return this.t.warn('bad cable block header');
      this.current = { guid, portNum: Number(m[1]), lid: parseIntField(m[2]), fields: {} };
      if (m[4]) this.current.portName = m[4].trim();
      this.cables.push(this.current);
      return;
    }
    const sep = line.indexOf(':');
    if (sep <= 0 || !this.current) return this.t.warn('line outside a cable block ignored');
    this.current.fields[line.slice(0, sep).trim()] = line.slice(sep + 1).trim();
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<CablesData> {
    this.t.finishChecks();
    return { value: { header: this.t.header, cables: this.cables }, warnings: this.t.warnings };
  }
}

/** Parse a whole .cables given as text or lines. */
export function parseCables(input: LineSource, options?: { file?: string }): ParseResult<CablesData> {
  return runLineParser(new CablesParser(options), input);
}

/**
 * A cable block as a `CableInfo` of the given node. Passive copper has no sensor and prints
 * `Temperature: 0C` next to `Type: Copper cable- unequalized`: that 0 is dropped, not reported.
 */
export function toCableInfo(block: CableBlock, nodeGuid: Guid): CableInfo {
  const f = block.fields;
  const c: CableInfo = { nodeGuid, portNum: block.portNum };
  if (known(f['Vendor'])) c.vendor = f['Vendor'];
  if (known(f['PN'])) c.partNumber = f['PN'];
  if (known(f['SN'])) c.serialNumber = f['SN'];
  if (known(f['Type'])) c.type = f['Type'];
  const len = /^([\d.]+)\s*m$/.exec(f['Length'] ?? '');
  if (len) c.lengthM = Number(len[1]);
  const temp = /^(-?\d+(?:\.\d+)?)\s*C$/.exec(f['Temperature'] ?? '');
  if (temp && !(Number(temp[1]) === 0 && /copper/i.test(f['Type'] ?? ''))) c.temperatureC = Number(temp[1]);
  return c;
}
