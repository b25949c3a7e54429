/**
 * `saquery SMIR` (SMInfoRecord) -> one {@link SmObservation} per SM the SA knows: master and
 * standbys. Real output (infiniband-diags 44, two TABs of indent):
 *
 * ```
 * SMInfoRecord dump:
 * 		RID
 * 		LID...................1
 * 		SMInfo dump:
 * 		GUID..................0xb83fd20300002011
 * 		SM_Key................0x0000000000000000
 * 		ActCount..............3368
 * 		Priority..............15
 * 		SMState...............3
 * ```
 * SMState: 0 NOTACTIVE, 1 DISCOVERING, 2 STANDBY, 3 MASTER. ActCount grows while an SM is alive,
 * so a master whose ActCount stalls between two scans is unhealthy. SM_Key is not kept.
 *
 * Unusable: empty output (the SA itself is an SM, so a working query returns at least the
 * master), binary data, or no complete record. A record missing GUID, Priority or SMState (output
 * cut mid-record) is dropped with a warning; unknown fields are warnings.
 */
import type { SmObservation } from '@ibwatch/fabric';
import { LineContext, type ParseOptions } from '../common/line-context.ts';
import { type LineParser, type LineSource, runLineParser } from '../common/line-runner.ts';
import { smStateFromNumber } from './sminfo.ts';

interface Draft {
  line: number;
  fields: Record<string, string>;
}

const FIELD_RE = /^\s*(\w+)\.{2,}(.*)$/;

/** Line-at-a-time `saquery SMIR` parser. */
export function createSaquerySmirParser(opts: ParseOptions = {}): LineParser<SmObservation[]> {
  const ctx = new LineContext('saquery-smir', opts.file);
  const sms: SmObservation[] = [];
  let draft: Draft | undefined;

  function close(): void {
    if (!draft) return;
    const f = draft.fields;
    if (f.GUID === undefined || f.Priority === undefined || f.SMState === undefined) {
      ctx.warn('incomplete SMInfoRecord (output cut?); dropped', draft.line);
    } else {
      const sm: SmObservation = {
        guid: ctx.guid(f.GUID),
        priority: Number(f.Priority),
        state: smStateFromNumber(Number(f.SMState)),
      };
      if (f.LID !== undefined) sm.lid = Number(f.LID);
      if (f.ActCount !== undefined && /^\d+$/.test(f.ActCount)) sm.activityCount = BigInt(f.ActCount);
      sms.push(sm);
    }
    draft = undefined;
  }

  return {
    feed(raw) {
      const line = ctx.next(raw);
      const t = line.trim();
      if (t === '' || t === 'RID' || t === 'SMInfo dump:') return;
      if (t === 'SMInfoRecord dump:') {
        close();
        draft = { line: ctx.lineNo, fields: {} };
        return;
      }
      const m = FIELD_RE.exec(line);
      if (m && draft) {
        if (['LID', 'GUID', 'SM_Key', 'ActCount', 'Priority', 'SMState'].includes(m[1]))
          draft.fields[m[1]] = m[2].trim();
        else ctx.unknown(line, 'unknown SMInfoRecord field');
      } else ctx.unknown(line);
    },
    finish() {
      close();
      ctx.requireContent();
      if (sms.length === 0) ctx.fail('no complete SMInfoRecord', undefined, null);
      return ctx.result(sms);
    },
  };
}

/** Parse `saquery SMIR` output (text or lines). */
export function parseSaquerySmir(input: LineSource, opts: ParseOptions = {}) {
  return runLineParser(createSaquerySmirParser(opts), input);
}
