/**
 * `opensm.conf` -> all `key value` entries plus the settings that matter for SM high
 * availability, typed. Format (written by `opensm -c FILE`): one `key value` per line, `#`
 * comments, booleans `TRUE`/`FALSE`, unset strings `(null)`:
 *
 * ```
 * sm_priority 15
 * sminfo_polling_timeout 10000
 * routing_engine ftree,minhop
 * root_guid_file (null)
 * ```
 * Defaults applied by OpenSM when a key is absent are *not* filled in (the dashboard shows what
 * the file says); {@link estimateTakeoverMs} uses OpenSM's defaults (10000 ms x 4) for missing
 * keys. A repeated key: the last one wins (as OpenSM reads it) with a warning. A line without a
 * value is a warning. Unusable: binary data only; an empty file is valid (all defaults) with a
 * warning. Command-line flags (`-p`, `-s`, `-R`, `-g`) override the file and are not seen here.
 */
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';

/** HA-relevant settings, typed; undefined = not in the file. */
export interface OpensmHaSettings {
  /** 0-15, higher wins; ties go to the lower port GUID. */
  smPriority?: number;
  /** Seconds between light sweeps; 0 disables them. */
  sweepIntervalS?: number;
  /** Engines tried in order (`routing_engine ftree,minhop`). */
  routingEngines?: string[];
  /** ms between a standby's SMInfo polls of the master. */
  sminfoPollingTimeoutMs?: number;
  /** Failed polls before a standby declares the master dead. */
  pollingRetryNumber?: number;
  rootGuidFile?: string | null;
  cnGuidFile?: string | null;
  ignoreOtherSm?: boolean;
  honorGuid2lidFile?: boolean;
  /** Port GUID to bind (`guid`); `0x0000000000000000` = first active port. */
  guid?: string;
  smInactive?: boolean;
  forceHeavySweep?: boolean;
  sweepOnTrap?: boolean;
  logFile?: string | null;
  forceLogFlush?: boolean;
  perfmgr?: boolean;
}

export interface OpensmConf {
  /** Every key -> raw value (`(null)` -> null). */
  entries: Record<string, string | null>;
  ha: OpensmHaSettings;
}

const num = (v: string | null | undefined): number | undefined =>
  v !== null && v !== undefined && /^(0x[0-9a-f]+|\d+)$/i.test(v) ? Number(v) : undefined;
const bool = (v: string | null | undefined): boolean | undefined =>
  v === 'TRUE' ? true : v === 'FALSE' ? false : undefined;

/** Line-at-a-time opensm.conf parser. */
export function createOpensmConfParser(opts: ParseOptions = {}): LineParser<OpensmConf> {
  const ctx = new LineContext('opensm.conf', opts.file);
  const entries: Record<string, string | null> = {};
  return {
    feed(raw) {
      const line = ctx.next(raw);
      const t = line.trim();
      if (t === '' || t.startsWith('#')) return;
      const m = /^(\S+)\s+(.*?)\s*$/.exec(t);
      if (!m || m[2] === '') {
        ctx.unknown(line, 'key without value');
        return;
      }
      if (m[1] in entries) ctx.warn(`key ${m[1]} repeated; the last value wins`);
      entries[m[1]] = m[2] === '(null)' ? null : m[2];
    },
    finish() {
      if (ctx.nonBlank === 0) ctx.warn('empty opensm.conf: OpenSM defaults apply', null);
      const e = entries;
      const ha: OpensmHaSettings = {};
      const set = <K extends keyof OpensmHaSettings>(k: K, v: OpensmHaSettings[K] | undefined): void => {
        if (v !== undefined) ha[k] = v;
      };
      set('smPriority', num(e.sm_priority));
      set('sweepIntervalS', num(e.sweep_interval));
      if (typeof e.routing_engine === 'string')
        ha.routingEngines = e.routing_engine
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      set('sminfoPollingTimeoutMs', num(e.sminfo_polling_timeout));
      set('pollingRetryNumber', num(e.polling_retry_number));
      if ('root_guid_file' in e) ha.rootGuidFile = e.root_guid_file;
      if ('cn_guid_file' in e) ha.cnGuidFile = e.cn_guid_file;
      set('ignoreOtherSm', bool(e.ignore_other_sm));
      set('honorGuid2lidFile', bool(e.honor_guid2lid_file));
      if (typeof e.guid === 'string') ha.guid = e.guid;
      set('smInactive', bool(e.sm_inactive));
      set('forceHeavySweep', bool(e.force_heavy_sweep));
      set('sweepOnTrap', bool(e.sweep_on_trap));
      if ('log_file' in e) ha.logFile = e.log_file;
      set('forceLogFlush', bool(e.force_log_flush));
      set('perfmgr', bool(e.perfmgr));
      return ctx.result({ entries, ha });
    },
  };
}

/** Parse an opensm.conf (text or lines). */
export function parseOpensmConf(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createOpensmConfParser(opts), input);
}

/**
 * Rough time for a standby to take over after the master dies: polling timeout x retries
 * (OpenSM defaults 10000 ms x 4). Measured in the lab: 1000 ms x 2 -> 3.3 s (plus a sweep);
 * defaults -> ~58 s (docs/lab.md). A lower bound, not a promise.
 */
export function estimateTakeoverMs(ha: OpensmHaSettings): number {
  return (ha.sminfoPollingTimeoutMs ?? 10000) * (ha.pollingRetryNumber ?? 4);
}
