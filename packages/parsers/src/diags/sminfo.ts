/**
 * `sminfo [lid]` -> {@link SmObservation}. One line per run:
 *
 * ```
 * sminfo: sm lid 1 sm guid 0xb83fd20300002011, activity count 3165 priority 15 state 3 SMINFO_MASTER
 * ```
 * (rdma-core format `sm lid %d sm guid 0x%x, activity count %u priority %d state %d %s`; the
 * GUID is printed without zero padding, e.g. `0x2c90200259201`.) Plain `sminfo` shows only the
 * SM the local port points at (the master); `sminfo <lid>` queries one SM; to list master *and*
 * standbys use `saquery SMIR` ({@link parseSaquerySmir}). Several lines (e.g. the same command
 * run on many hosts through a cluster shell, separated by banners) give several observations;
 * other lines are warnings.
 *
 * Unusable: empty output, binary data, and the tool's own failure line
 * (`sminfo: iberror: failed: query`, older `sminfo: iberror: query failed`): there is no SM
 * data, and the thrown {@link ParseError} quotes the tool's message.
 */
import type { SmObservation, SmState } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';

const SMINFO_RE =
  /^sminfo: sm lid (\d+) sm guid (0x[0-9a-fA-F]+), activity count (\d+) priority (\d+) state (\d+)(?: (\S+))?\s*$/;

/** SMInfo.SMState number (0-3) -> state name. */
export function smStateFromNumber(n: number): SmState {
  return (['NOTACTIVE', 'DISCOVERING', 'STANDBY', 'MASTER'] as const)[n] ?? 'UNKNOWN';
}

/** Line-at-a-time sminfo parser. */
export function createSminfoParser(opts: ParseOptions = {}): LineParser<SmObservation[]> {
  const ctx = new LineContext('sminfo', opts.file);
  const sms: SmObservation[] = [];
  return {
    feed(raw) {
      const line = ctx.next(raw);
      if (line.trim() === '') return;
      const m = SMINFO_RE.exec(line);
      if (m) {
        sms.push({
          guid: ctx.guid(m[2], line),
          lid: Number(m[1]),
          activityCount: BigInt(m[3]),
          priority: Number(m[4]),
          state: smStateFromNumber(Number(m[5])),
        });
      } else if (/iberror|failed/.test(line)) {
        ctx.fail('sminfo reported a failure', line);
      } else ctx.unknown(line);
    },
    finish() {
      ctx.requireContent();
      if (sms.length === 0) ctx.fail('no "sminfo: sm lid ..." line', undefined, null);
      return ctx.result(sms);
    },
  };
}

/** Parse sminfo output (text or lines). */
export function parseSminfo(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createSminfoParser(opts), input);
}
