// `ibwatch sm` (the subnet managers, as the SM page shows them) and `ibwatch sm relearn`.
import type { SmReply, SmRow } from '@ibwatch/fabric';
import type { Context } from './context.ts';
import { smReply } from './queries/sm-view.ts';
import { relearnSms } from './scans/service.ts';

const fmtTime = (ms: number | null) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + 'Z' : '-');

function smLine(s: SmRow): string {
  const where = `${s.name ?? '?'}${s.portNum === null ? '' : ` port ${s.portNum}`}`;
  const seen = s.answering ? 'answering' : `NOT SEEN since ${fmtTime(s.lastSeen)} (last ${s.state})`;
  const state = s.answering ? s.state : 'NOT-SEEN';
  return (
    `${state.padEnd(11)} ${s.guid} lid ${s.lid ?? '?'} priority ${s.priority} ${where} ` +
    `${s.designated ? 'designated' : 'ROGUE'} ${seen}`
  );
}

function designationLine(r: Pick<SmReply, 'designation'>): string {
  const d = r.designation;
  const from =
    d.source === 'config'
      ? 'from IBWATCH_SM_GUIDS'
      : d.source === 'learned'
        ? `learned at ${fmtTime(d.learnedAt)}`
        : 'none yet (learned from the first SM scan that sees an SM)';
  return (
    `designated SMs: ${d.guids.join(', ') || '-'} (${from})` +
    (d.relearnPending ? '; re-learn pending' : '') +
    (d.neverSeen.length ? `; never answered: ${d.neverSeen.join(', ')}` : '')
  );
}

/** Runs `ibwatch sm [relearn]`; returns the exit code. */
export async function smCommand(
  ctx: Context,
  args: readonly string[],
  json: boolean,
  out: (s: string) => void,
): Promise<number> {
  const [sub] = args;
  if (sub === 'relearn') {
    const r = await relearnSms(ctx.db, ctx.config, ctx.names, ctx.scans, 'cli');
    if (json) out(JSON.stringify(r));
    else {
      if (r.scan) out(`scan #${r.scan.id} sm: ${r.scan.status}${r.scan.error ? ` — ${r.scan.error}` : ''}`);
      out(designationLine(r));
    }
    return r.scan?.status === 'failed' ? 1 : 0;
  }
  if (sub !== undefined) throw new Error(`unknown sm command ${sub} (expected: sm, or sm relearn)`);
  const data = smReply(ctx, Date.now(), 50);
  if (json) out(JSON.stringify(data));
  else {
    out(`status: ${data.summary.status} (observed ${fmtTime(data.summary.observedAt)})`);
    out(designationLine(data));
    for (const s of data.sms) out(smLine(s));
    for (const e of data.events) out(`${fmtTime(e.at)} ${e.kind}: ${e.detail}`);
  }
  return 0;
}
