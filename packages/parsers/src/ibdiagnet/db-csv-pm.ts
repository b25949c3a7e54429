/**
 * db_csv PM_INFO / PM_DELTA reader, the hot loop of a big fabric: 2 × 40k rows × 50 counters
 * at 10k GPUs. Kept apart from the other section readers for that reason.
 */
import type { PortCounters } from '@ibwatch/fabric';
import type { SectionContext, SectionReader } from './db-csv-sections.ts';
import { indexer, missing } from './db-csv-sections.ts';
import { parseCounter, parseCounterAt, parseGuidField, parseIntField } from './values.ts';

type RecordBuilder = (values: (bigint | null)[]) => Record<string, bigint>;

/**
 * A function that builds `{ [names[i]]: values[i] }` for the defined names, as one object
 * literal. V8 creates such a literal with its final shape in one step, where adding 50 keys to
 * `{}` walks 50 shape transitions and regrows the property store. Names come from the file's
 * header and enter the generated source only through JSON.stringify, as string literals.
 */
function recordBuilder(names: (string | undefined)[]): RecordBuilder {
  const props = names.map((n, i) => (n === undefined ? '' : `${JSON.stringify(n)}: v[${i}],`)).join('');
  return new Function('v', `return { ${props} };`) as RecordBuilder;
}

/**
 * PM_INFO / PM_DELTA: every column other than the keys is a counter, kept under its name.
 * This is the hot loop on a big fabric (2 × 40k rows × 50 counters at 10k GPUs). Rows of one
 * kind of port omit the same unsupported columns, so each such "shape" gets a compiled record
 * builder (see `recordBuilder`): 10-20× faster than adding 50 keys one by one.
 */
export function pmReader(target: PortCounters[], ctx: SectionContext, section: string): SectionReader {
  let node = -1;
  let port = -1;
  let counterIdx: number[] = [];
  let counterNames: string[] = [];
  /** Column → counter slot, -1 for key columns. */
  let slotOf: Int32Array = new Int32Array(0);
  const values: (bigint | null)[] = [];
  const builders = new Map<string, RecordBuilder>();
  // Invalid cells are summarised per column: one warning, not one per port.
  const invalid = new Map<string, { count: number; line: number; text: string; reason: string }>();
  const noteInvalid = (name: string, line: number, text: string, reason: string): void => {
    const seen = invalid.get(name);
    if (seen) seen.count++;
    else invalid.set(name, { count: 1, line, text, reason });
  };
  const take = (nodeText: string, portText: string, absent: string): string | undefined => {
    const nodeGuid = parseGuidField(nodeText);
    if (!nodeGuid) return `bad NodeGUID ${JSON.stringify(nodeText)}`;
    const portNum = parseIntField(portText);
    if (portNum === undefined) return `bad PortNumber ${JSON.stringify(portText)}`;
    let build = builders.get(absent);
    if (build === undefined) {
      build = recordBuilder(counterNames.map((n, k) => (values[k] === null ? undefined : n)));
      builders.set(absent, build);
    }
    target.push({ nodeGuid, portNum, counters: build(values) });
    return undefined;
  };
  return {
    header(names) {
      const ix = indexer(names);
      node = ix('NodeGUID');
      port = ix('PortNumber', 'PortNum');
      const keys = new Set([node, port, ix('PortGUID')]);
      counterIdx = [];
      counterNames = [];
      names.forEach((n, i) => { if (!keys.has(i) && n) { counterIdx.push(i); counterNames.push(n); } });
      slotOf = new Int32Array(names.length).fill(-1);
      counterIdx.forEach((col, k) => { slotOf[col] = k; });
      return missing({ NodeGUID: node, PortNumber: port });
    },
    rawRow(line, lineNo, expected) {
      let nodeText = '';
      let portText = '';
      let start = 0;
      let col = 0;
      let absent = '';
      let bad: [string, string, string][] | undefined;
      for (;;) {
        let end = line.indexOf(',', start);
        if (end === -1) end = line.length;
        if (col < slotOf.length) {
          const k = slotOf[col];
          if (k >= 0) {
            const v = parseCounterAt(line, start, end);
            if (typeof v === 'bigint') values[k] = v;
            else {
              values[k] = null;
              absent += k + ',';
              if (v !== null) (bad ??= []).push([counterNames[k], line.slice(start, end), v]);
            }
          } else if (col === node) nodeText = line.slice(start, end);
          else if (col === port) portText = line.slice(start, end);
        }
        col++;
        if (end === line.length) break;
        start = end + 1;
      }
      if (col !== expected) return `row has ${col} fields, header has ${expected}`;
      for (const [name, text, reason] of bad ?? []) noteInvalid(name, lineNo, text, reason);
      return take(nodeText, portText, absent);
    },
    row(f, line) {
      let absent = '';
      for (let k = 0; k < counterIdx.length; k++) {
        const v = parseCounter(f[counterIdx[k]]);
        if (typeof v === 'bigint') {
          values[k] = v;
          continue;
        }
        values[k] = null;
        absent += k + ',';
        if (v !== null) noteInvalid(counterNames[k], line, f[counterIdx[k]], v);
      }
      return take(f[node], f[port], absent);
    },
    end() {
      for (const [name, s] of invalid) {
        ctx.warn(s.line, `${section} column ${name}: ${s.count} invalid value(s) skipped (first: ${JSON.stringify(s.text)}, ${s.reason})`);
      }
    },
  };
}

