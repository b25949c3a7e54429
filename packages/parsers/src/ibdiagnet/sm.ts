/**
 * ibdiagnet2.sm: the SMs ibdiagnet found, grouped by role:
 *
 *   ibdiagnet fabric SM report
 *
 *     SM - master
 *       Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12
 *
 * Standbys appear as further `  SM - standby` groups (inferred: the samples have only a master).
 * db_csv SM_INFO carries the same SMs with state and ActCount; this file adds the SM's LID.
 */
import type { Guid, ParseResult, SmState } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { TextDump } from './text-dump.ts';
import { parseGuidField } from '../common/guids.ts';
import { parseIntField } from './values.ts';
import type { DumpHeader } from './values.ts';

export const SM_FORMAT = 'ibdiagnet2.sm';

export interface SmReportEntry {
  state: SmState;
  guid: Guid;
  portNum?: number;
  lid?: number;
  deviceId?: number;
  priority?: number;
}

export interface SmReport {
  header: DumpHeader;
  sms: SmReportEntry[];
}

const ROLE: Record<string, SmState> = {
  master: 'MASTER',
  standby: 'STANDBY',
  discovering: 'DISCOVERING',
  'not active': 'NOTACTIVE',
  notactive: 'NOTACTIVE',
};

/** Line-at-a-time .sm parser. */
export class SmParser implements LineParser<SmReport> {
  private readonly t: TextDump;
  private readonly sms: SmReportEntry[] = [];
  private role: SmState | undefined;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(SM_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line)) return;
    const s = line.trim();
    if (s === 'ibdiagnet fabric SM report') return;
    const role = /^SM - (.+)$/.exec(s);
    if (role) {
      this.role = ROLE[role[1].trim().toLowerCase()] ?? 'UNKNOWN';
      return;
    }
    const kv: Record<string, string> = {};
    for (const m of s.matchAll(/(\w+)[=:](\S+)/g)) kv[m[1].toLowerCase()] = m[2];
    const guid = parseGuidField(kv.guid);
    if (!guid || !this.role) return this.t.warn('unrecognised line ignored');
    this.sms.push({
      state: this.role,
      guid,
      portNum: parseIntField(kv.port),
      lid: parseIntField(kv.lid),
      deviceId: parseIntField(kv.dev),
      priority: parseIntField(kv.priority),
    });
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<SmReport> {
    this.t.finishChecks();
    return { value: { header: this.t.header, sms: this.sms }, warnings: this.t.warnings };
  }
}

/** Parse a whole .sm given as text or lines. */
export function parseSm(input: LineSource, options?: { file?: string }): ParseResult<SmReport> {
  return runLineParser(new SmParser(options), input);
}
