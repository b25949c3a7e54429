/**
 * OpenSM log -> timestamped SM events (state changes, handovers, SUBNET UP, heavy-sweep durations,
 * SM port down, bind failures, `ERR xxxx` lines, exit). Accepted line forms, mixed freely:
 *
 * ```
 * Nov 29 17:47:04 666480 [5364A6C0] 0x80 -> Entering MASTER state      (osm.log, -f FILE; MLNX 5.x too)
 * OpenSM $ Jun 21 13:03:06 771114 [BE3ED6C0] 0x02 -> do_sweep:          (MLNX 5.x `-f -` with its prompt)
 * Dec 30 00:07:32 fili OpenSM[3110]: Entering STANDBY state#012          (syslog, OpenSM 3.2-3.3)
 * 2026-12-01T12:00:00.123456+00:00 sm1 OpenSM[3110]: SUBNET UP           (rsyslog RFC 3339 / journal)
 * Entering STANDBY state                                                 (bare stdout)
 * ```
 * Around them: `systemctl status` (unit header, `Loaded:`/`Active:`/`CGroup:` ... lines: skipped),
 * other programs' syslog lines (skipped), the star boxes OpenSM prints (`HEAVY SWEEP START`).
 * A record continues on lines with leading whitespace (osm.log's wrapped `ERR 5411`), and a syslog
 * message without its closing `#012` continues on the next line (a long message wrapped: the
 * pieces are joined as they are, since the wrap may cut a word); `#012` inside a message is a
 * newline. A last line without a newline (a log cut mid-line) is read and warned about.
 *
 * Heavy sweeps: from `Entering heavy sweep` / `HEAVY SWEEP START` / `Entering DISCOVERING state`
 * (3.3 logs nothing else at the default level) to `HEAVY SWEEP COMPLETE` or `SUBNET UP`; each
 * gives a `heavy-sweep` event at its end with `durationMs`.
 *
 * Time: the log's stamps are in the SM host's local time and have no year (except the RFC 3339
 * form). `time` is the stamp as printed; `at` (`YYYY-MM-DDTHH:MM:SS.ffffff`, no zone) is given
 * when the year can be inferred: from an RFC 3339 line when there is one, else from `year` (the
 * year of the log's LAST line) or `now` (that year, or the one before when the last line would
 * otherwise lie more than a day in the future — a December log read in January). Going back
 * from the end, a month lower than the line before (Dec -> Jan) is a new year.
 * Unusable: binary data. Empty input gives no events and a warning.
 */
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import {
  bannerTitle,
  type Classified,
  classify,
  isOtherSyslogLine,
  isSystemctlLine,
  MONTHS,
  parseRecord,
  type RawRecord,
  type Stamp,
  sweepMark,
} from './log-shapes.ts';

export type { OpensmEventKind } from './log-shapes.ts';

export interface OpensmEvent extends Classified {
  /** 1-based line number where the event's record starts. */
  line: number;
  /** `Nov 29 17:47:04.666480` as printed (month, day, time + usec); absent for bare lines. */
  time?: string;
  /** Local time `2026-11-29T17:47:04.666480` when the year is known (see module doc). */
  at?: string;
  /** Log level byte (`0x80` SYS, `0x01` ERROR, `0x02` INFO); osm.log only. */
  level?: number;
  /** syslog forms only. */
  host?: string;
  pid?: number;
  /** `heavy-sweep`: from its start to its end, in ms (from the log's microsecond stamps). */
  durationMs?: number;
  /** `heavy-sweep`: line and stamp of its start. */
  startLine?: number;
  startTime?: string;
  message: string;
}

export interface OpensmLogResult {
  events: OpensmEvent[];
  /** Lines that were not events (ignored). */
  otherLines: number;
  /** `systemctl status` lines and other programs' syslog lines skipped. */
  skippedLines: number;
  /**
   * Line where a heavy sweep started that had not ended by the last line: a follower reading
   * the log in pieces passes the text from there on again with the next piece, to time it.
   */
  openSweepLine?: number;
  /** The log stops short (see `cutAt`): what was read before is kept. */
  cut?: { line: number; why: string };
}

export interface OpensmLogOptions extends ParseOptions {
  /** Year of the log's last line. */
  year?: number;
  /** Infer the year of the last line from this moment (see module doc). */
  now?: Date;
}

interface Pending {
  rec: RawRecord;
  line: number;
  yearOffset: number;
}

interface Timed {
  ev: OpensmEvent;
  stamp?: Stamp;
  yearOffset: number;
  start?: { stamp: Stamp; yearOffset: number };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function printed(s: Stamp): string {
  return `${MONTHS[s.month]} ${pad(s.day)} ${s.hms}${s.usec ? '.' + s.usec : ''}`;
}

function localIso(s: Stamp, year: number): string {
  return `${year}-${pad(s.month + 1)}-${pad(s.day)}T${s.hms}${s.usec ? '.' + s.usec : ''}`;
}

function epochMs(s: Stamp, year: number): number {
  const [h, mi, sec] = s.hms.split(':').map(Number);
  return Date.UTC(year, s.month, s.day, h, mi, sec) + Number(s.usec ?? 0) / 1000;
}

/** Line-at-a-time OpenSM log parser. */
export function createOpensmLogParser(opts: OpensmLogOptions = {}): LineParser<OpensmLogResult> {
  const ctx = new LineContext('opensm-log', opts.file);
  const timed: Timed[] = [];
  let otherLines = 0;
  let skippedLines = 0;
  let pending: Pending | undefined;
  let last: Timed | undefined;
  let usesEscapes = false;
  // Year bookkeeping: rollovers seen so far, the previous stamp's month, an RFC 3339 anchor.
  let yearOffset = 0;
  let prevMonth: number | undefined;
  let anchor: { year: number; offset: number } | undefined;
  let lastStamped: { stamp: Stamp; yearOffset: number } | undefined;
  let sweep: { stamp: Stamp; yearOffset: number; line: number; weak: boolean } | undefined;

  // `weak`: a sweep opened by `Entering DISCOVERING state`; an explicit heavy-sweep line replaces it.
  const mark = (what: 'start' | 'end' | undefined, at: Pending | Timed | undefined, line: number, weak = false) => {
    const stamp = at && ('rec' in at ? at.rec.stamp : lastStamped?.stamp);
    if (!what || !stamp || !at) return;
    if (what === 'start') {
      if (!sweep || (sweep.weak && !weak)) sweep = { stamp, yearOffset: at.yearOffset, line, weak };
      return;
    }
    if (!sweep) return;
    const ev: OpensmEvent = {
      kind: 'heavy-sweep',
      line,
      startLine: sweep.line,
      startTime: printed(sweep.stamp),
      message: 'heavy sweep',
    };
    timed.push({ ev, stamp, yearOffset: at.yearOffset, start: sweep });
    sweep = undefined;
  };

  const flush = () => {
    if (!pending) return;
    const { rec, line } = pending;
    const parts = rec.message.split('#012');
    let message = parts[0].trim();
    const titles: string[] = [];
    for (const part of parts.slice(1)) {
      const title = bannerTitle(part);
      if (title) titles.push(title);
      else if (part.trim() !== '') message += ' ' + part.trim();
    }
    const c = classify(message);
    if (c?.kind === 'state' && c.state === 'DISCOVERING') mark('start', pending, line, true);
    // A sweep that ends in STANDBY (or NOTACTIVE) never brought the subnet up: no duration.
    if (c?.kind === 'state' && (c.state === 'STANDBY' || c.state === 'NOTACTIVE')) sweep = undefined;
    if (!c) otherLines++;
    else {
      const ev: OpensmEvent = { ...c, line, message };
      if (rec.stamp) ev.time = printed(rec.stamp);
      if (rec.level !== undefined) ev.level = rec.level;
      if (rec.host !== undefined) ev.host = rec.host;
      if (rec.pid !== undefined) ev.pid = rec.pid;
      last = { ev, stamp: rec.stamp, yearOffset: pending.yearOffset };
      timed.push(last);
    }
    mark(sweepMark(message), pending, line);
    for (const t of titles) mark(sweepMark(t), pending, line);
    pending = undefined;
  };

  const startRecord = (rec: RawRecord) => {
    const s = rec.stamp;
    if (s) {
      if (prevMonth !== undefined && s.month < prevMonth && prevMonth - s.month >= 6) yearOffset++;
      prevMonth = s.month;
      if (s.year !== undefined && !anchor) anchor = { year: s.year, offset: yearOffset };
      lastStamped = { stamp: s, yearOffset };
    }
    pending = { rec, line: ctx.lineNo, yearOffset };
  };

  const resolveYears = (): ((offset: number) => number | undefined) => {
    if (anchor) {
      const a = anchor;
      return (o) => a.year + (o - a.offset);
    }
    let endYear = opts.year;
    if (endYear === undefined && opts.now && lastStamped) {
      endYear = opts.now.getFullYear();
      const lastMs = epochMs(lastStamped.stamp, endYear);
      const nowMs = Date.UTC(endYear, opts.now.getMonth(), opts.now.getDate(), 23, 59, 59);
      if (lastMs > nowMs + 86_400_000) endYear--;
    }
    if (endYear === undefined) return () => undefined;
    const y = endYear;
    return (o) => y - (yearOffset - o);
  };

  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      const rec = parseRecord(line);
      if (rec) {
        flush();
        if (rec.terminated) usesEscapes = true;
        startRecord(rec);
        return;
      }
      if (isSystemctlLine(line) || isOtherSyslogLine(line)) {
        flush();
        skippedLines++;
        return;
      }
      if (/^\s*\*{10,}\s*$/.test(line)) return; // a box's frame
      const title = bannerTitle(line);
      if (title) {
        // A box belongs to the record it follows (`do_sweep:`): its line, its stamp.
        mark(sweepMark(title), pending ?? last, pending?.line ?? last?.ev.line ?? ctx.lineNo);
        return;
      }
      if (pending && /^\s/.test(line)) {
        pending.rec.message += ' ' + line.trim();
        return;
      }
      if (pending?.rec.syslog && !pending.rec.terminated && usesEscapes) {
        // A long syslog message wrapped onto this line: the rest of it, up to its `#012`.
        const rest = line.trimEnd();
        pending.rec.terminated = rest.endsWith('#012');
        pending.rec.message += pending.rec.terminated ? rest.slice(0, -4) : rest;
        return;
      }
      flush();
      const bare = classify(line.trim());
      if (bare) {
        last = { ev: { ...bare, line: ctx.lineNo, message: line.trim() }, yearOffset };
        timed.push(last);
      } else otherLines++;
    },
    finish() {
      flush();
      if (ctx.nonBlank === 0) ctx.warn('empty log', null);
      const yearOf = resolveYears();
      for (const t of timed) {
        const year = yearOf(t.yearOffset);
        if (t.stamp && year !== undefined) t.ev.at = localIso(t.stamp, year);
        if (t.stamp && !t.ev.time) t.ev.time = printed(t.stamp);
        if (t.start && t.stamp) {
          // Without a year the two stamps still give the duration (same or next year).
          const y = year ?? 2001;
          const y0 = yearOf(t.start.yearOffset) ?? y - (t.yearOffset - t.start.yearOffset);
          t.ev.durationMs = Math.round((epochMs(t.stamp, y) - epochMs(t.start.stamp, y0)) * 1000) / 1000;
        }
      }
      const events = timed.map((t) => t.ev);
      const result: OpensmLogResult = { events, otherLines, skippedLines };
      if (sweep) result.openSweepLine = sweep.line;
      return ctx.result(result);
    },
  };
}

/**
 * Where a log copied or captured from a terminal stops short, as a person reading it would see
 * it: the last line without its newline (copied while OpenSM wrote it), a last line ending in the
 * `^C` a terminal echoes when `tail -f` or `opensm -f -` is interrupted (`... vl15_send_^C`, a
 * real capture in fixtures/opensm/README.md), or a last line whose stamp is cut (`Aug 22 11:30:4`).
 */
export function cutAt(text: string): { line: number; why: string } | undefined {
  if (text === '') return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  const ended = /[\r\n]$/.test(text);
  let n = lines.length - 1;
  while (n >= 0 && lines[n].trim() === '') n--;
  if (n < 0) return undefined;
  const last = lines[n].trimEnd();
  if (last.endsWith('^C')) return { line: n + 1, why: 'log cut by Ctrl-C (the last line ends in ^C)' };
  if (!ended) return { line: lines.length, why: 'log cut mid-line: the last line has no newline' };
  const stampStart = /^(?:OpenSM \$ )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d/.test(last);
  if (stampStart && !parseRecord(last))
    return { line: n + 1, why: 'log cut mid-line: the last line has no whole stamp' };
  return undefined;
}

/** Parse an OpenSM log (text, bytes or lines); a log cut short is warned about (`cut`). */
export function parseOpensmLog(input: LineSource, opts: OpensmLogOptions = {}) {
  const result = runLineParser(createOpensmLogParser(opts), input);
  let text: string | undefined;
  if (typeof input === 'string') text = input;
  else if (input instanceof Uint8Array) text = new TextDecoder().decode(input);
  const cut = text === undefined ? undefined : cutAt(text);
  if (cut) {
    const w = { message: cut.why, line: cut.line };
    result.warnings.push(opts.file === undefined ? w : { ...w, file: opts.file });
    result.value.cut = cut;
  }
  return result;
}
