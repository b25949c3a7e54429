/**
 * OpenSM log -> timestamped SM events (state changes, SUBNET UP, SMInfo timeouts, routing engine,
 * handover signals, exit). Accepted line forms:
 *
 * ```
 * Nov 29 17:47:04 666480 [5364A6C0] 0x80 -> Entering MASTER state          (opensm.log, -f FILE)
 * Dec 30 00:07:32 fili OpenSM[3110]: Entering STANDBY state                  (syslog / journal)
 * Entering STANDBY state                                                     (bare stdout)
 * ```
 * Events recognised (OpenSM 3.3.23 and MLNX 5.x strings):
 * `Entering <NOTACTIVE|DISCOVERING|STANDBY|MASTER> state`, `SUBNET UP` (`(sweep disabled)`),
 * `Exiting SM`, `ERR 3120: Timeout while getting attribute 0x20 (SMInfo)` (a standby polling a
 * dead master: `polling_retry_number` of them precede the takeover), `<engine> tables configured
 * on all switches` (which routing engine actually ran — ftree silently falls back to minhop),
 * `Found remote master SM with guid:...`, `Received a STANDBY signal`, `Reached polling_retry_number`
 * and `coming out of standby 1` (heavy sweep after a takeover). Any other `ERR xxxx:` line becomes
 * an `error` event. Everything else is ignored and only counted; continuation lines (leading
 * whitespace) extend the previous event's message.
 *
 * The log has no year: `time` is `{ month, day, hh:mm:ss.usec }` as printed, in the SM host's
 * local time; pass `year` to also get `at` (`YYYY-MM-DDTHH:MM:SS.ffffff`, no zone).
 * Unusable: binary data. Empty input gives no events and a warning.
 */
import type { SmState } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';

export type OpensmEventKind =
  | 'state'
  | 'subnet-up'
  | 'exit'
  | 'sminfo-timeout'
  | 'routing'
  | 'remote-master'
  | 'standby-signal'
  | 'polling-exhausted'
  | 'out-of-standby-sweep'
  | 'error';

export interface OpensmEvent {
  kind: OpensmEventKind;
  /** 1-based line number. */
  line: number;
  /** `Nov 29 17:47:04.666480` as printed (month, day, time + usec); absent for bare lines. */
  time?: string;
  /** With `year`: local time `2026-11-29T17:47:04.666480`. */
  at?: string;
  /** Log level byte (`0x80` SYS, `0x01` ERROR, `0x02` INFO); opensm.log only. */
  level?: number;
  /** syslog form only. */
  host?: string;
  pid?: number;
  /** `state` events. */
  state?: SmState;
  /** `routing` events: `minhop`, `ftree`, `ar_ftree`, ... */
  engine?: string;
  /** `ERR xxxx` code for `sminfo-timeout` / `error`. */
  errCode?: string;
  /** `remote-master`: GUID as printed. */
  guid?: string;
  message: string;
}

export interface OpensmLogResult {
  events: OpensmEvent[];
  /** Lines that were not events (ignored). */
  otherLines: number;
}

export interface OpensmLogOptions extends ParseOptions {
  year?: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const OSM_RE = /^(\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\d{6}) \[([0-9A-Fa-f]+)\] 0x([0-9a-fA-F]{2}) -> (.*)$/;
const SYSLOG_RE = /^(\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) OpenSM\[(\d+)\]: (.*)$/;

function classify(msg: string): Omit<OpensmEvent, 'line' | 'message'> | undefined {
  let m: RegExpExecArray | null;
  if ((m = /Entering (NOTACTIVE|DISCOVERING|STANDBY|MASTER) state/.exec(msg)))
    return { kind: 'state', state: m[1] as SmState };
  if (/^SUBNET UP\b/.test(msg)) return { kind: 'subnet-up' };
  if (/^Exiting SM\b/.test(msg)) return { kind: 'exit' };
  if ((m = /ERR (3120): Timeout while getting attribute 0x20 \(SMInfo\)/.exec(msg)))
    return { kind: 'sminfo-timeout', errCode: m[1] };
  if ((m = /(?:^|: )(\S+) tables configured on all switches/.exec(msg))) return { kind: 'routing', engine: m[1] };
  if ((m = /Found remote master SM with guid:\s*(0x[0-9a-fA-F]+)/.exec(msg)))
    return { kind: 'remote-master', guid: m[1] };
  if (/Received a STANDBY signal/.test(msg)) return { kind: 'standby-signal' };
  if (/Reached polling_retry_number/.test(msg)) return { kind: 'polling-exhausted' };
  if (/coming out of standby 1/.test(msg)) return { kind: 'out-of-standby-sweep' };
  if ((m = /\bERR ([0-9A-Fa-f]{4}):/.exec(msg))) return { kind: 'error', errCode: m[1] };
  return undefined;
}

/** Line-at-a-time OpenSM log parser. */
export function createOpensmLogParser(opts: OpensmLogOptions = {}): LineParser<OpensmLogResult> {
  const ctx = new LineContext('opensm-log', opts.file);
  const events: OpensmEvent[] = [];
  let otherLines = 0;
  let last: OpensmEvent | undefined;

  const stamp = (mon: string, day: string, hms: string, usec?: string): Pick<OpensmEvent, 'time' | 'at'> => {
    const time = `${mon} ${day.padStart(2, '0')} ${hms}${usec ? '.' + usec : ''}`;
    const mi = MONTHS.indexOf(mon);
    if (opts.year === undefined || mi < 0) return { time };
    const date = `${opts.year}-${String(mi + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
    const at = `${date}T${hms}${usec ? '.' + usec : ''}`;
    return { time, at };
  };

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      if (/^\s/.test(line)) {
        if (last) last.message += ' ' + line.trim();
        else otherLines++;
        return;
      }
      let base: Omit<OpensmEvent, 'kind' | 'line'>;
      let m: RegExpExecArray | null;
      if ((m = OSM_RE.exec(line)))
        base = { ...stamp(m[1], m[2], m[3], m[4]), level: parseInt(m[6], 16), message: m[7] };
      else if ((m = SYSLOG_RE.exec(line)))
        base = { ...stamp(m[1], m[2], m[3]), host: m[4], pid: Number(m[5]), message: m[6] };
      else base = { message: line.trim() };
      const c = classify(base.message);
      if (!c) {
        otherLines++;
        last = undefined;
        return;
      }
      last = { ...base, ...c, line: ctx.lineNo };
      events.push(last);
    },
    finish() {
      if (ctx.nonBlank === 0) ctx.warn('empty log', null);
      return ctx.result({ events, otherLines });
    },
  };
}

/** Parse an OpenSM log (text or lines). */
export function parseOpensmLog(input: LineSource, opts: OpensmLogOptions = {}) {
  return runLineParser(createOpensmLogParser(opts), input);
}
