/**
 * The line shapes an OpenSM log comes in and the messages that are events. Pure helpers of
 * log.ts; the shapes are documented there.
 */
import type { SmState } from '@ibwatch/fabric';

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
  | 'handover'
  | 'sm-port-down'
  | 'sm-port-up'
  | 'bind-failed'
  | 'sm-port-unknown'
  | 'heavy-sweep'
  | 'error';

/** A record's stamp as printed: month index 0-11, day, `hh:mm:ss`, microseconds. */
export interface Stamp {
  month: number;
  day: number;
  hms: string;
  usec?: string;
  /** Only the ISO syslog form carries its year. */
  year?: number;
}

/** One record of the log before it is classified: where it starts and what it says. */
export interface RawRecord {
  stamp?: Stamp;
  level?: number;
  host?: string;
  pid?: number;
  /** syslog forms: the message ended with `#012` (rsyslog's escape of the `\n` OpenSM sends). */
  terminated?: boolean;
  syslog?: boolean;
  message: string;
}

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// `OpenSM $ ` is the console prompt MLNX OpenSM leaves in a log written to stdout (`-f -`).
const PROMPT_RE = /^OpenSM \$ /;
const OSM_RE = /^(\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\d{6}) \[([0-9A-Fa-f]+)\] 0x([0-9a-fA-F]{2}) -> ?(.*)$/;
const SYSLOG_RE = /^(\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) (?:OpenSM|opensm)(?:\[(\d+)\])?: ?(.*)$/;
// rsyslog RFC 3339 / `journalctl -o short-iso-precise`: the only form that carries its year.
const ISO_RE = new RegExp(
  '^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,6}))?(?:Z|[+-]\\d{2}:?\\d{2}) ' +
    '(\\S+) (?:OpenSM|opensm)(?:\\[(\\d+)\\])?: ?(.*)$',
);
// Another program's syslog line inside the same excerpt (systemd, the init script, kernel).
const OTHER_SYSLOG_RE = /^(\w{3}) +\d{1,2} \d{2}:\d{2}:\d{2} \S+ [\w./-]+(?:\[\d+\])?: /;
const SYSTEMCTL_RE = new RegExp(
  '^(?:[●○×*] )?\\S+\\.service(?: - |$)|^Hint: Some lines were ellipsized|^\\s+[└├│]|' +
    '^\\s+(?:Loaded|Active|Docs|Process|Main PID|Tasks|Memory|CPU|CGroup|TriggeredBy|Status|IO|Drop-In|Triggers):',
);
const ESC_NL = '#012';

/** Parse one line as a record start, or undefined (continuation, banner, other text). */
export function parseRecord(rawLine: string): RawRecord | undefined {
  const line = rawLine.replace(PROMPT_RE, '').trimEnd();
  let m: RegExpExecArray | null;
  if ((m = OSM_RE.exec(line))) {
    const stamp = stampOf(m[1], m[2], m[3], m[4]);
    if (stamp) return { stamp, level: parseInt(m[6], 16), message: m[7] };
  }
  if ((m = SYSLOG_RE.exec(line))) {
    const stamp = stampOf(m[1], m[2], m[3]);
    if (stamp) return syslogRecord(stamp, m[4], m[5], m[6]);
  }
  if ((m = ISO_RE.exec(line))) {
    const usec = m[5]?.padEnd(6, '0');
    const stamp: Stamp = { year: Number(m[1]), month: Number(m[2]) - 1, day: Number(m[3]), hms: m[4], usec };
    return syslogRecord(stamp, m[6], m[7], m[8]);
  }
  return undefined;
}

function syslogRecord(stamp: Stamp, host: string, pid: string | undefined, message: string): RawRecord {
  const terminated = message.endsWith(ESC_NL);
  const rec: RawRecord = {
    stamp,
    host,
    syslog: true,
    terminated,
    message: terminated ? message.slice(0, -4) : message,
  };
  if (pid !== undefined) rec.pid = Number(pid);
  return rec;
}

function stampOf(mon: string, day: string, hms: string, usec?: string): Stamp | undefined {
  const month = MONTHS.indexOf(mon);
  if (month < 0) return undefined;
  return usec === undefined ? { month, day: Number(day), hms } : { month, day: Number(day), hms, usec };
}

/** `systemctl status` around the log lines: the unit header, its fields, the CGroup tree. */
export function isSystemctlLine(line: string): boolean {
  return SYSTEMCTL_RE.test(line);
}

/** A syslog line of another program (systemd, the init script): not OpenSM's. */
export function isOtherSyslogLine(line: string): boolean {
  return OTHER_SYSLOG_RE.test(line);
}

/**
 * The message boxes OpenSM prints around sweeps (`OSM_LOG_MSG_BOX`): a line of stars with a title
 * (`HEAVY SWEEP START`, `HEAVY SWEEP COMPLETE`, `ENTERING SM MASTER STATE`, ...).
 */
export function bannerTitle(line: string): string | undefined {
  const m = /^\s*\*{3,} ?([A-Z][A-Z0-9 ]*[A-Z0-9]) ?\*{3,}\s*$/.exec(line);
  return m?.[1];
}

/** The parts of an event a message decides. */
export interface Classified {
  kind: OpensmEventKind;
  state?: SmState;
  engine?: string;
  errCode?: string;
  guid?: string;
}

/** Heavy-sweep boundaries: messages (and box titles) that open or close one. */
export function sweepMark(text: string): 'start' | 'end' | undefined {
  if (/^(?:HEAVY SWEEP START|INITIATING HEAVY SWEEP)$|Entering heavy sweep\b/.test(text)) return 'start';
  if (/^HEAVY SWEEP COMPLETE|^SUBNET UP\b/.test(text)) return 'end';
  return undefined;
}

/**
 * What a message is, in OpenSM 3.3.23 and MLNX 5.x spelling (strings of osm_state_mgr.c,
 * osm_sm_state_mgr.c, osm_vendor_ibumad.c and main.c).
 */
export function classify(msg: string): Classified | undefined {
  let m: RegExpExecArray | null;
  if ((m = /Entering (NOTACTIVE|DISCOVERING|STANDBY|MASTER) state/.exec(msg)))
    return { kind: 'state', state: m[1] as SmState };
  if (/^SUBNET UP\b/.test(msg)) return { kind: 'subnet-up' };
  if (/^Exiting SM\b|Got signal \d+ - exiting/.test(msg)) return { kind: 'exit' };
  if ((m = /ERR (3120): Timeout while getting attribute 0x20 \(SMInfo\)/.exec(msg)))
    return { kind: 'sminfo-timeout', errCode: m[1] };
  if ((m = /(?:^|: )(\S+) tables configured on all switches/.exec(msg))) return { kind: 'routing', engine: m[1] };
  if ((m = /Found remote master SM with guid:\s*(0x[0-9a-fA-F]+)/.exec(msg)))
    return { kind: 'remote-master', guid: m[1] };
  if ((m = /Handing over mastership\. Updating sm_state_mgr master_guid: (?:0x)?([0-9a-fA-F]+)/.exec(msg)))
    return { kind: 'handover', guid: `0x${m[1]}` };
  if (/Received a STANDBY signal/.test(msg)) return { kind: 'standby-signal' };
  if (/Reached polling_retry_number/.test(msg)) return { kind: 'polling-exhausted' };
  if (/coming out of standby 1/.test(msg)) return { kind: 'out-of-standby-sweep' };
  if (/\bSM port is down\b/.test(msg)) return { kind: 'sm-port-down' };
  if (/\bSM port is up\b/.test(msg)) return { kind: 'sm-port-up' };
  // The SM bound to a port GUID the fabric does not have (MLNX OpenSM 5.7, `opensm -B -g <guid>`):
  // `osm_get_physp_by_dr: ERR 7526: Couldn't find SM port by guid: 0x1122334477667791`, then each
  // sweep `state_mgr_is_sm_port_down: ERR 3309: SM port with GUID:1122334477667791 is unknown`
  // (and ERR 3320 from state_mgr_clear_sm_port_when_down); it never leaves DISCOVERING.
  if ((m = /ERR (7526): Couldn't find SM port by guid:?\s*(0x[0-9a-fA-F]+)/.exec(msg)))
    return { kind: 'sm-port-unknown', errCode: m[1], guid: m[2] };
  if ((m = /ERR (3309|3320): SM port with GUID:\s*(?:0x)?([0-9a-fA-F]+) is unknown/.exec(msg)))
    return { kind: 'sm-port-unknown', errCode: m[1], guid: `0x${m[2]}` };
  // Debian's OpenSM 3.3.23 with `-g` naming no local port stops at the bind instead:
  // `osm_vendor_open_port: ERR 5422: Unable to find requested CA guid 0x2c903000bad01`.
  if ((m = /ERR (5422): Unable to find requested CA guid (0x[0-9a-fA-F]+)/.exec(msg)))
    return { kind: 'bind-failed', errCode: m[1], guid: m[2] };
  if (/Error from osm_opensm_bind|bind failed|Unable to register class|another instance of OpenSM/.test(msg)) {
    m = /\bERR ([0-9A-Fa-f]{4}):/.exec(msg);
    return m ? { kind: 'bind-failed', errCode: m[1] } : { kind: 'bind-failed' };
  }
  if ((m = /\bERR ([0-9A-Fa-f]{4}):/.exec(msg))) return { kind: 'error', errCode: m[1] };
  return undefined;
}
