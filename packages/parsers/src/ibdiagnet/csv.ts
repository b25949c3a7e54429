/**
 * One-line CSV splitting for db_csv rows. ibdiagnet quotes only text fields (NodeDesc
 * `"MF0;ib-switch-sequoia:MQM9700/U1"`, warning Summary) and never writes a newline inside a
 * field, so a row is always one line. Most rows hold no quote at all: those take the plain
 * `split(',')` fast path, which is several times faster than a character loop.
 */

/** Split one CSV row; undefined when a quoted field is not closed (a truncated line). */
export function splitCsvRow(line: string): string[] | undefined {
  if (line.indexOf('"') === -1) return line.split(',');
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (i < n && line.charCodeAt(i) === 34) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q === -1) return undefined;
        value += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // Text after a closing quote up to the comma is kept (lenient, as `csv` readers are).
      const comma = line.indexOf(',', i);
      const tail = comma === -1 ? line.slice(i) : line.slice(i, comma);
      out.push(value + tail);
      if (comma === -1) return out;
      i = comma + 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}
