/**
 * db_csv PM_INFO / PM_DELTA reader, the hot loop of a big fabric: 2 × 40k rows × 50 counters
 * at 10k GPUs (40% of a 10k-GPU db_csv). Kept apart from the other section readers for that.
 */
import type { Guid, PortCounters } from '@ibwatch/fabric';
import type { CsvRow } from './csv.ts';
import type { SectionContext, SectionReader } from './db-csv-sections.ts';
import { indexer, intCell, missing } from './db-csv-sections.ts';
import { parseCounter, parseIntField, SMALL_BIGINTS } from './values.ts';

const RECENT = 16;

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
 * Rows of one kind of port omit the same unsupported columns (`-1`, `N/A`), so each such
 * "shape" gets a compiled record builder (see `recordBuilder`): 10-20× faster than adding 50
 * keys one by one. Consecutive rows nearly always share a shape, so the previous row's list of
 * absent columns is compared first and the shape map is only consulted when it differs.
 */
export function pmReader(target: PortCounters[], ctx: SectionContext, section: string): SectionReader {
  const guids = ctx.guids;
  let node = -1;
  let port = -1;
  let counterIdx: number[] = [];
  let counterNames: string[] = [];
  /** Column → counter slot, -1 for other columns. */
  let slotOf: Int32Array = new Int32Array(0);
  const values: (bigint | null)[] = [];
  const builders = new Map<string, RecordBuilder>();
  /** Absent slots of this row and of the row whose builder is `lastBuild`. */
  let absent = new Int32Array(0);
  let nAbsent = 0;
  let lastAbsent = new Int32Array(0);
  let nLastAbsent = -1;
  let lastBuild: RecordBuilder | undefined;
  /** Large values already made into bigints in the current row (see `rawRow`). */
  const recentNum = new Float64Array(RECENT);
  const recentBig: bigint[] = [];
  let nRecent = 0;
  // Invalid cells are summarised per column: one warning, not one per port.
  const invalid = new Map<string, { count: number; line: number; text: string; reason: string }>();
  let bad: [string, string, string][] = [];
  const noteInvalid = (name: string, line: number, text: string, reason: string): void => {
    const seen = invalid.get(name);
    if (seen) seen.count++;
    else invalid.set(name, { count: 1, line, text, reason });
  };
  /** A cell that is not a plain decimal: hex, a sentinel, N/A, garbage, > 15 digits. */
  const setSlow = (text: string, k: number): void => {
    const v = parseCounter(text);
    if (typeof v === 'bigint') {
      values[k] = v;
      return;
    }
    values[k] = null;
    absent[nAbsent++] = k;
    if (v !== null) bad.push([counterNames[k], text, v]);
  };

  const builderFor = (): RecordBuilder => {
    if (nAbsent === nLastAbsent && lastBuild !== undefined) {
      let same = true;
      for (let i = 0; i < nAbsent; i++) if (absent[i] !== lastAbsent[i]) { same = false; break; }
      if (same) return lastBuild;
    }
    const key = Array.prototype.join.call(absent.subarray(0, nAbsent), ',');
    let build = builders.get(key);
    if (build === undefined) {
      build = recordBuilder(counterNames.map((n, k) => (values[k] === null ? undefined : n)));
      builders.set(key, build);
    }
    lastAbsent.set(absent.subarray(0, nAbsent));
    nLastAbsent = nAbsent;
    lastBuild = build;
    return build;
  };

  const take = (nodeGuid: Guid | undefined, portNum: number | undefined, lineNo: number): string | undefined => {
    if (bad.length > 0) {
      for (const [name, text, reason] of bad) noteInvalid(name, lineNo, text, reason);
      bad = [];
    }
    if (!nodeGuid) return 'bad NodeGUID';
    if (portNum === undefined) return 'bad PortNumber';
    target.push({ nodeGuid, portNum, counters: builderFor()(values) });
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
      absent = new Int32Array(counterIdx.length);
      lastAbsent = new Int32Array(counterIdx.length);
      return missing({ NodeGUID: node, PortNumber: port });
    },
    rawRow(line, from, to, lineNo, expected) {
      // One pass over the characters finds the commas and accumulates each cell's decimal
      // value, so a plain counter (nearly all of them) is never sliced, matched or re-read.
      nAbsent = 0;
      nRecent = 0;
      let nodeStart = -1;
      let nodeEnd = -1;
      let portNum: number | undefined;
      let portStart = -1;
      let portEnd = -1;
      let col = 0;
      let start = from;
      let v = 0;
      let plain = true;
      const n = to;
      const cols = slotOf.length;
      for (let i = from; i <= n; i++) {
        const c = i < n ? line.charCodeAt(i) : 44;
        if (c !== 44) {
          const d = c - 48;
          if (d >= 0 && d <= 9) v = v * 10 + d;
          else if (c === 34) return false;
          else plain = false;
          continue;
        }
        const k = col < cols ? slotOf[col] : -1;
        if (k >= 0) {
          // 16 digits stay exact in a double up to 2^53 (PortXmitDataExtended gets there).
          if (plain && i > start && i - start <= 16 && v <= Number.MAX_SAFE_INTEGER) {
            if (v < 1024) values[k] = SMALL_BIGINTS[v];
            else {
              // A row repeats values: PortXmitDataExtended = PortXmitData until the 32-bit
              // one saturates, PortUniCastXmitPkts = PortXmitPkts... Re-using the row's earlier
              // bigint saves an allocation that would survive into the result.
              let r = 0;
              while (r < nRecent && recentNum[r] !== v) r++;
              if (r < nRecent) values[k] = recentBig[r];
              else {
                const b = BigInt(v);
                values[k] = b;
                if (nRecent < RECENT) {
                  recentNum[nRecent] = v;
                  recentBig[nRecent++] = b;
                }
              }
            }
          } else setSlow(line.slice(start, i), k);
        } else if (col === node) {
          nodeStart = start;
          nodeEnd = i;
        } else if (col === port) {
          portStart = start;
          portEnd = i;
          portNum = plain && i > start && i - start <= 15 ? v : undefined;
        }
        col++;
        start = i + 1;
        v = 0;
        plain = true;
      }
      if (col !== expected) {
        bad = [];
        return `row has ${col} fields, header has ${expected}`;
      }
      if (portNum === undefined && portStart >= 0) portNum = parseIntField(line.slice(portStart, portEnd));
      const nodeGuid = nodeStart >= 0 ? guids.getAt(line, nodeStart, nodeEnd) : undefined;
      const problem = take(nodeGuid, portNum, lineNo);
      if (problem === undefined) return undefined;
      return `${problem} ${JSON.stringify(line.slice(problem === 'bad NodeGUID' ? nodeStart : portStart, problem === 'bad NodeGUID' ? nodeEnd : portEnd))}`;
    },
    row(r: CsvRow, line) {
      nAbsent = 0;
      for (let k = 0; k < counterIdx.length; k++) setSlow(r.text(counterIdx[k])!, k);
      const text = r.text(node);
      const problem = take(text === undefined ? undefined : guids.get(text), intCell(r, port), line);
      return problem === undefined ? undefined : `${problem} ${JSON.stringify(r.text(problem === 'bad NodeGUID' ? node : port))}`;
    },
    end() {
      for (const [name, s] of invalid) {
        ctx.warn(s.line, `${section} column ${name}: ${s.count} invalid value(s) skipped (first: ${JSON.stringify(s.text)}, ${s.reason})`);
      }
    },
  };
}
