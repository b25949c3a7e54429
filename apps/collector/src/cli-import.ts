/**
 * What `ibwatch import diags FILE` and `ibwatch import opensm-log FILE` print: the scan line,
 * each warning (file:line) and what was read and stored, from the scan row's summary.
 */
import type { ScanRow } from '@ibwatch/fabric';

type Print = (s: string) => void;

/** `port.1`, `aggregate.2`, `unplaced.3`: one line each; the other summary values on one line. */
export function importLines(row: ScanRow): string[] {
  const s = row.summary as Record<string, number | string>;
  const lines: string[] = [];
  const flat: string[] = [];
  for (const [k, v] of Object.entries(s)) {
    if (k === 'file' || k === 'format') continue;
    if (/^(?:port|aggregate|unplaced)\.\d+$/.test(k)) lines.push(`  ${v}`);
    else if (v !== '') flat.push(`${k} ${v}`);
  }
  const what = s.format ? `${s.format} ` : '';
  const head = `${row.kind} ${what}${s.file ?? ''}: ${flat.join(', ')}`;
  return row.status === 'failed' ? [] : [head, ...lines];
}

export function printImport(row: ScanRow, json: boolean, out: Print, err: Print): void {
  if (json) {
    out(JSON.stringify(row));
    return;
  }
  err(`scan #${row.id} ${row.kind}: ${row.status} in ${row.durationMs ?? '?'} ms${row.error ? ` — ${row.error}` : ''}`);
  for (const w of row.warnings) err(`warning: ${w}`);
  for (const l of importLines(row)) out(l);
}
