/**
 * ibdiagnet2.log: the human report. What the dashboard takes from it:
 * - the header (`Running timestamp: 2025-03-31 23:43:18 UTC +0000`),
 * - stages (a line of 45 `-` then the title: `Discovery`, `Port Counters`, ...),
 * - check results (`-W- FW Check finished with warnings`, `-I- Links Check finished successfully`,
 *   `-W- Duplicated Node Description detection skipped`),
 * - `-W-`/`-E-` detail lines (`-W- Sfc6a.../Nfc6a... - Node with Devid:54002(0xd2f2),PSID:...`),
 *   including link speed/width mismatches (`-W- Link: <objA><-->objB - Unexpected actual link
 *   speed 14`) and counter increases (`-E- <obj> - "symbol_error_counter" increased during the
 *   run (difference value=27,difference allowed threshold=1)`); indented continuation lines are
 *   appended to the message before them,
 * - the PM sampling interval (`-I- Going to sleep for 1 seconds until next counters sample`),
 * - `Fabric Summary` key/values and the `Summary` table (`-I- Discovery   17   0`; stage names
 *   contain spaces, so the numbers are taken from the right).
 * Note: the log prints at most 5 details per check; the db_csv WARNINGS_/ERRORS_ sections have all.
 */
import type { Guid, ParseResult } from '@ibwatch/fabric';
import { runLineParser } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { TextDump } from './text-dump.ts';
import { parseGuidField } from '../common/guids.ts';
import { readHeaderLine } from './values.ts';
import type { DumpHeader } from './values.ts';

export const LOG_FORMAT = 'ibdiagnet2.log';

export interface LogMessage {
  severity: 'warning' | 'error';
  /** Whole text after `-W- ` / `-E- ` (plus continuation lines, joined by `; `). */
  text: string;
  stage?: string;
  /**
   * The check whose result line came just before, in the same block (ibdiagnet prints the result
   * first, then up to 5 details: `-W- FW Check finished with warnings` / `-W- Sfc6a.../Nfc6a... - ...`).
   */
  check?: string;
  line: number;
  /** Part before ` - ` when the line names an object (`S<sys>/N<node>/P1`, `host/mlx5_0/...`). */
  object?: string;
  /** Part after ` - `. */
  message?: string;
  /** Node GUID decoded from an `S<sysguid>/N<nodeguid>` object. */
  nodeGuid?: Guid;
  /** Classification of well-known messages. */
  code?: 'LINK_SPEED_MISMATCH' | 'LINK_WIDTH_MISMATCH' | 'COUNTER_INCREASED' | 'NOTE';
}

export interface LogCheck {
  name: string;
  result: 'ok' | 'warnings' | 'errors' | 'skipped';
  stage?: string;
  line: number;
}

export interface LogStageSummary {
  stage: string;
  warnings: number;
  errors: number;
  comment?: string;
}

export interface IbdiagnetLog {
  header: DumpHeader;
  /** Stage titles in order of appearance (only stages that ran). */
  stages: string[];
  messages: LogMessage[];
  checks: LogCheck[];
  /** The final `Summary` table; empty when the run did not get that far. */
  summary: LogStageSummary[];
  /** `Fabric Summary` lines `Key : value` (`Total Nodes` → `272`, `Links at 4x100` → `271`). */
  fabricSummary: Record<string, string>;
  /** `Master SM: Port=0 LID=180 GUID=0x... devid=54002 Priority:12 ...` decoded. */
  masterSm?: { guid?: Guid; lid?: number; priority?: number; portNum?: number; description?: string };
  /** Seconds between the two PM samples (PM_DELTA interval). */
  pmIntervalSeconds?: number;
  /** `-I- Database : /var/tmp/ibdiagnet2/ibdiagnet2.db_csv` style file list. */
  outputFiles: Record<string, string>;
}

const RULER = '-'.repeat(45);
const CHECK = /^(.+?) finished (successfully|with warnings|with errors)\s*$/;
const NODE_OBJ = /^S([0-9a-fA-F]{16})\/N([0-9a-fA-F]{16})/;

function classify(text: string): LogMessage['code'] {
  if (/^Note:/.test(text)) return 'NOTE';
  if (/link speed/i.test(text) && /unexpected|mismatch|not.*(max|enabled|supported)/i.test(text))
    return 'LINK_SPEED_MISMATCH';
  if (/link width/i.test(text) && /unexpected|mismatch|not.*(max|enabled|supported)/i.test(text))
    return 'LINK_WIDTH_MISMATCH';
  if (/increased during the run/.test(text)) return 'COUNTER_INCREASED';
  return undefined;
}

/** Line-at-a-time .log parser. */
export class LogParser implements LineParser<IbdiagnetLog> {
  private readonly t: TextDump;
  private readonly v: IbdiagnetLog = {
    header: {},
    stages: [],
    messages: [],
    checks: [],
    summary: [],
    fabricSummary: {},
    outputFiles: {},
  };
  private stage: string | undefined;
  private expectTitle = false;
  private last: LogMessage | undefined;
  /** The check whose details follow (until a blank line or the next stage). */
  private check: string | undefined;

  constructor(options: { file?: string } = {}) {
    this.t = new TextDump(LOG_FORMAT, options.file);
  }

  feed(line: string): void {
    if (this.t.pre(line)) {
      if (line.length === 0) this.last = this.check = undefined;
      return;
    }
    const no = this.t.lineNo;
    if (line === RULER) {
      this.expectTitle = true;
      this.last = this.check = undefined;
      return;
    }
    if (this.expectTitle) {
      this.expectTitle = false;
      this.stage = line.trim();
      this.v.stages.push(this.stage);
      return;
    }
    if (this.stage === undefined && line.startsWith('Running ')) {
      readHeaderLine(line, this.v.header);
      return;
    }
    const tag = line.slice(0, 4);
    if (tag === '-W- ' || tag === '-E- ')
      return this.message(tag === '-W- ' ? 'warning' : 'error', line.slice(4).trim(), no);
    if (tag === '-I- ') return this.info(line.slice(4).trim(), no);
    if (this.last && /^\s/.test(line)) {
      this.last.text += `; ${line.trim()}`;
      return;
    }
    this.last = undefined;
    if (this.stage === 'Fabric Summary') this.fabricSummary(line);
  }

  private message(severity: 'warning' | 'error', text: string, line: number): void {
    this.last = undefined;
    const check = CHECK.exec(text);
    if (check) {
      const result = check[2] === 'successfully' ? 'ok' : check[2] === 'with warnings' ? 'warnings' : 'errors';
      this.check = result === 'ok' ? undefined : check[1].trim();
      this.v.checks.push({ name: check[1].trim(), result, stage: this.stage, line });
      return;
    }
    const skipped = /^(.+?) skipped\b/.exec(text);
    if (skipped && !text.includes(' - ')) {
      this.v.checks.push({ name: skipped[1].trim(), result: 'skipped', stage: this.stage, line });
      return;
    }
    const m: LogMessage = { severity, text, line };
    if (this.stage) m.stage = this.stage;
    if (this.check) m.check = this.check;
    const sep = text.indexOf(' - ');
    if (sep > 0) {
      m.object = text.slice(0, sep).trim();
      m.message = text.slice(sep + 3).trim();
      const obj = NODE_OBJ.exec(m.object.replace(/^Link:\s*/, ''));
      const guid = obj ? parseGuidField(obj[2]) : undefined;
      if (guid) m.nodeGuid = guid;
    }
    const code = classify(text);
    if (code) m.code = code;
    this.v.messages.push(m);
    this.last = m;
  }

  private info(text: string, line: number): void {
    this.last = undefined;
    const check = CHECK.exec(text);
    if (check && this.stage !== 'Summary') {
      this.check = undefined;
      this.v.checks.push({ name: check[1].trim(), result: 'ok', stage: this.stage, line });
      return;
    }
    const sleep = /^Going to sleep for (\d+(?:\.\d+)?) seconds?/.exec(text);
    if (sleep) this.v.pmIntervalSeconds = Number(sleep[1]);
    if (this.stage !== 'Summary') return;
    const file = /^(.+?)\s+: (.+)$/.exec(text);
    if (file) {
      this.v.outputFiles[file[1].trim()] = file[2].trim();
      return;
    }
    // `-I- Discovery                           17         0         ` — numbers from the right.
    const row = /^(.+?)\s+(\d+)\s+(\d+)(?:\s+(.*?))?\s*$/.exec(text);
    if (row) {
      const entry: LogStageSummary = { stage: row[1].trim(), warnings: Number(row[2]), errors: Number(row[3]) };
      if (row[4]) entry.comment = row[4];
      this.v.summary.push(entry);
    }
  }

  private fabricSummary(line: string): void {
    const master = /^Master SM:\s*(.*)$/.exec(line);
    if (master) {
      const kv: Record<string, string> = {};
      for (const m of master[1].matchAll(/(\w+)[=:](\S+)/g)) kv[m[1].toLowerCase()] = m[2];
      const desc = /Node_Description=(.*)$/.exec(master[1]);
      this.v.masterSm = {
        guid: parseGuidField(kv.guid),
        lid: kv.lid ? Number(kv.lid) : undefined,
        priority: kv.priority ? Number(kv.priority) : undefined,
        portNum: kv.port ? Number(kv.port) : undefined,
        description: desc?.[1].trim(),
      };
      return;
    }
    const kv = /^(.+?)\s*:\s*(.+)$/.exec(line);
    if (kv) this.v.fabricSummary[kv[1].trim()] = kv[2].trim();
    else if (line.trim()) this.v.fabricSummary[line.trim()] = '';
  }

  /** A line too long to keep (see `LineParser.skipLine`). */
  skipLine(head: string): void {
    this.t.skipped(head);
  }

  finish(): ParseResult<IbdiagnetLog> {
    this.t.finishChecks(false);
    if (this.v.header.runningTimestamp === undefined && this.v.stages.length === 0) {
      this.t.fail(1, undefined, 'not an ibdiagnet2.log (no "Running timestamp:" header, no stage)');
    }
    if (!this.v.stages.includes('Summary')) this.t.warn('no Summary stage: ibdiagnet interrupted or log truncated');
    // Header lines start with `Running`, without `#`; TextDump saw none of them.
    this.v.header = { ...this.t.header, ...this.v.header };
    return { value: this.v, warnings: this.t.warnings };
  }
}

/** Parse a whole .log given as text or lines. */
export function parseIbdiagnetLog(input: LineSource, options?: { file?: string }): ParseResult<IbdiagnetLog> {
  return runLineParser(new LogParser(options), input);
}
