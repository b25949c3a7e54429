/**
 * CSV for spreadsheets: RFC 4180 quoting, and cells that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, CR at the start) are prefixed with `'` so a node description like
 * `=HYPERLINK(...)` arrives as text (CSV/formula injection).
 */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A UTF-8 byte order mark for CSVs with text beyond ASCII: without it Excel reads the file in
 * the local code page and shows the worklist's `→` (action ladder) as `â†’`. LibreOffice and
 * pandas (`encoding='utf-8-sig'`) skip it.
 */
export const UTF8_BOM = '\uFEFF';

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
