/**
 * ibdiagnet2.db_csv: the primary machine-readable output of ibdiagnet. Layout:
 *
 *   # INDEX_TABLE offset:      965824, line:        6214
 *   START_NODES
 *   NodeDesc,NumPorts,NodeType,...          (header row, always present)
 *   "MF0;ib-switch-sequoia:MQM9700/U1",65,2,...
 *   END_NODES
 *
 * A line-at-a-time state machine reads it, so a 10k-GPU file (60 MB) streams; data rows are
 * read as bytes (`takeLines`, csv.ts, db-csv-pm.ts), the few other lines as text. The
 * INDEX_TABLE section is not trusted (it is wrong after any editing); sections are found by
 * their START_/END_ lines.
 *
 * Decisions:
 * - Every section is optional; unknown sections are counted (see `sections`) and skipped
 *   without splitting their rows; unknown columns are ignored (PM_INFO keeps every column).
 * - A row whose field count differs from its header (`5 fields, header has 9`) is skipped with a
 *   warning naming its line: fields are positional, so with one missing every later value would
 *   land in the wrong column. So is a row with a quote inside an unquoted field: text before a
 *   field's opening quote (`xx"MF0;ib-switch...",65,...`, a damaged or prefixed line). If no
 *   row of an interpreted section survives, the section is unusable and `ParseError` names its
 *   first bad line.
 * - A section seen a second time is ignored with a warning (the first copy is consistent with
 *   RUN_INFO; a duplicate usually means two files were concatenated).
 * - `ParseError` for: empty/garbage input, binary data, `START_X` without `END_X` (truncated
 *   file), `END_X` without `START_X`, `START_Y` inside X (sections out of order/nested).
 */
import type { ParseResult, ParseWarning } from '@ibwatch/fabric';
import { CounterTableBuilder } from '@ibwatch/fabric';
import { ParseError } from '../common/parse-error.ts';
import { decodeUtf8, encodeInto } from '../common/bytes.ts';
import { looksBinary } from '../common/lines.ts';
import { CsvRow, splitCsvRow } from './csv.ts';
import type { DbCsvData } from './db-csv-types.ts';
import { sectionReader } from './db-csv-sections.ts';
import type { SectionReader } from './db-csv-cells.ts';
import { MAX_LINE_BYTES, runLineParser, runLineParserAsync } from '../common/line-runner.ts';
import type { LineParser, LineSource } from '../common/line-runner.ts';
import { GuidTable } from '../common/guids.ts';

export const DB_CSV_FORMAT = 'ibdiagnet2.db_csv';

/** Options of the db_csv parser. */
export interface DbCsvOptions {
  /** File name for messages (`ibdiagnet2.db_csv` when omitted). */
  file?: string;
  /**
   * A section the file's INDEX_TABLE lists but the file lacks (or the INDEX_TABLE itself, when
   * the first line promises one) fails the parse instead of being a warning. Default false.
   */
  strict?: boolean;
}

/** `# INDEX_TABLE offset:      965824, line:        6214` (the first line ibdiagnet writes). */
const INDEX_LINE = /^# INDEX_TABLE offset:\s*\d+,\s*line:\s*(\d+)/;

interface OpenSection {
  name: string;
  startLine: number;
  reader?: SectionReader;
  header?: string[];
  rows: number;
  accepted: number;
  firstBad?: { line: number; text: string; reason: string };
  ignored: boolean;
}

/** Line-at-a-time db_csv parser; see the module comment for the decisions it makes. */
export class DbCsvParser implements LineParser<DbCsvData> {
  /** Lines read so far: at a `ParseError`, the line it was found on. */
  lineNo = 0;
  private open: OpenSection | undefined;
  private seen = new Map<string, number>();
  private readonly warnings: ParseWarning[] = [];
  /** Rows of PORTS: one PM row per port, the PM tables' size hint. */
  private portRows = 0;
  private readonly data: DbCsvData = {
    runInfo: {},
    nodes: [],
    ports: [],
    links: [],
    pmInfo: new CounterTableBuilder().build(),
    pmDelta: new CounterTableBuilder().build(),
    sms: [],
    cables: [],
    findings: [],
    temperatures: [],
    firmware: [],
    sections: [],
    index: [],
  };
  private readonly file: string | undefined;
  private readonly strict: boolean;
  private readonly guids = new GuidTable();
  /** Re-used for every row (one object per file, not one array of cells per row). */
  private readonly row = new CsvRow();
  /** A row that arrives as a string (`feed`) is read as its UTF-8 bytes, by the same code. */
  private scratch: Uint8Array = new Uint8Array(1024);

  constructor(options: DbCsvOptions = {}) {
    this.file = options.file;
    this.strict = options.strict ?? false;
  }

  private fail(line: number | undefined, text: string | undefined, reason: string): never {
    throw new ParseError({ format: DB_CSV_FORMAT, file: this.file, line, text, reason });
  }

  private warn(line: number, message: string): void {
    this.warnings.push({ line, message, file: this.file ?? DB_CSV_FORMAT });
  }

  feed(line: string): void {
    const no = ++this.lineNo;
    const s = this.open;
    if (s !== undefined) {
      const c0 = line.charCodeAt(0);
      if (c0 === 69 /* E */ && line.startsWith('END_')) return this.close(s, line, no);
      if (c0 === 83 /* S */ && line.startsWith('START_')) {
        this.fail(no, line, `${line} inside section ${s.name} (END_${s.name} missing or sections out of order)`);
      }
      if (s.header === undefined) return this.takeHeader(s, line, no);
      if (line.length === 0) return;
      s.rows++;
      if (s.reader === undefined || s.ignored) return;
      const { bytes, length } = encodeInto(line, this.scratch);
      this.scratch = bytes;
      this.takeRow(s, s.reader, bytes, 0, length, no);
      return;
    }
    if (line.length === 0) return;
    if (line.charCodeAt(0) === 35 /* # */) {
      const m = no === 1 ? INDEX_LINE.exec(line) : null;
      if (m && Number(m[1]) > 0) this.data.indexLine = Number(m[1]);
      return;
    }
    if (line.startsWith('START_')) return this.start(line, no);
    if (line.startsWith('END_')) this.fail(no, line, `${line} without START_${line.slice(4)}`);
    if (this.data.sections.length === 0) {
      this.fail(no, line, looksBinary(line) ? 'binary data, not a db_csv' : 'expected START_<SECTION> or a # comment');
    }
    this.warn(no, `line outside any section ignored: ${JSON.stringify(line.slice(0, 80))}`);
  }

  /**
   * Rows are read straight out of the read bytes: no string per line. Rows of a section this
   * parser only counts (26 of the 60 MB of a 10k-GPU file: EXTENDED_PORT_INFO, FEC_MODE,
   * PM_PORT_SAMPLES_CONTROL...) are just counted, by a native `indexOf` per line. A line
   * starting with `E` or `S` (maybe `END_`/`START_`) is left to `feed`.
   */
  takeLines(bytes: Uint8Array, from: number): number {
    const s = this.open;
    if (s === undefined || s.header === undefined) return from;
    const reader = s.ignored ? undefined : s.reader;
    // No read past the end of `bytes` (see NetDumpParser.takeLines for why).
    const len = bytes.length;
    let pos = from;
    while (pos < len) {
      const c = bytes[pos]!;
      if (c === 69 /* E */ || c === 83 /* S */) return pos;
      const nl = bytes.indexOf(10, pos);
      if (nl === -1) return pos;
      const end = nl > pos && bytes[nl - 1] === 13 ? nl - 1 : nl;
      const no = ++this.lineNo;
      // Blank lines are not rows, as in `feed`.
      if (end > pos) {
        s.rows++;
        if (reader !== undefined) this.takeRow(s, reader, bytes, pos, end, no);
      }
      pos = nl + 1;
    }
    return pos;
  }

  /**
   * A line over `MAX_LINE_BYTES`, of which only `head` was read (`LineParser.skipLine`). In a
   * section this parser reads it is a bad row (skipped with a warning; binary data fails, as in
   * any row); in a section it only counts, a row; anywhere else what `feed` says of such a line.
   */
  skipLine(head: string): void {
    const s = this.open;
    const no = ++this.lineNo;
    const reason = `line longer than ${MAX_LINE_BYTES} bytes`;
    if (s === undefined) {
      if (this.data.sections.length === 0) {
        this.fail(no, head, looksBinary(head) ? 'binary data, not a db_csv' : `${reason}: not a db_csv`);
      }
      return this.warn(no, `${reason} outside any section skipped`);
    }
    if (s.header === undefined) {
      if (looksBinary(head)) this.fail(no, head, `binary data in section ${s.name}`);
      s.header = [];
      if (s.reader !== undefined && !s.ignored) this.warn(no, `section ${s.name} header: ${reason}; section ignored`);
      s.ignored = true;
      return;
    }
    s.rows++;
    if (s.reader === undefined || s.ignored) return;
    if (looksBinary(head)) this.fail(no, head, `binary data in section ${s.name}`);
    s.firstBad ??= { line: no, text: head, reason };
    this.warn(no, `${s.name} row skipped: ${reason}: ${JSON.stringify(head.slice(0, 60))}...`);
  }

  private start(line: string, no: number): void {
    const name = line.slice(6).trim();
    // Check sections carry the check's name, brackets included:
    // `START_WARNINGS_PORTS_COUNTERS_DIFFERENCE_CHECK_(DURING_RUN)` (log: "Ports counters
    // Difference Check (during run)").
    if (!/^[\w()]+$/.test(name)) this.fail(no, line, 'bad section name');
    const earlier = this.seen.get(name);
    const s: OpenSection = { name, startLine: no, rows: 0, accepted: 0, ignored: earlier !== undefined };
    if (earlier !== undefined) {
      this.warn(no, `section ${name} repeated (first at line ${earlier}); the repeat is ignored`);
    } else {
      this.seen.set(name, no);
      s.reader = sectionReader(name, this.data, {
        warn: (l, m) => this.warn(l, m),
        guids: this.guids,
        rowsHint: this.portRows,
      });
    }
    this.open = s;
  }

  private takeHeader(s: OpenSection, line: string, no: number): void {
    if (looksBinary(line)) this.fail(no, line, `binary data in section ${s.name}`);
    // Header names are trimmed: PM_INFO writes `retransmission_per_sec, max_retransmission_rate`.
    s.header = (splitCsvRow(line) ?? line.split(',')).map((h) => h.trim());
    if (s.reader && !s.ignored) {
      const problem = s.reader.header(s.header);
      if (problem) {
        this.warn(no, `section ${s.name} ${problem}; section ignored`);
        s.ignored = true;
      }
    }
  }

  /** Row `bytes[start, end)`, read in place. */
  private takeRow(
    s: OpenSection,
    reader: SectionReader,
    bytes: Uint8Array,
    start: number,
    end: number,
    no: number,
  ): void {
    const expected = s.header!.length;
    let problem = reader.rawRow === undefined ? false : reader.rawRow(bytes, start, end, no, expected);
    if (problem === false) {
      const r = this.row;
      if (!r.scan(bytes, start, end)) problem = 'unterminated quoted field (truncated line?)';
      else if (r.count !== expected) problem = `row has ${r.count} fields, header has ${expected}`;
      else if (r.stray >= 0) problem = `stray quote in ${s.header![r.stray]} (text before its opening quote?)`;
      else problem = reader.row(r, no);
    }
    if (problem === undefined) {
      s.accepted++;
      return;
    }
    const line = decodeUtf8(bytes, start, end);
    if (looksBinary(line)) this.fail(no, line, `binary data in section ${s.name}`);
    s.firstBad ??= { line: no, text: line, reason: problem };
    this.warn(no, `${s.name} row skipped: ${problem}`);
  }

  private close(s: OpenSection, line: string, no: number): void {
    const name = line.slice(4).trim();
    if (name !== s.name) this.fail(no, line, `${line} closes section ${s.name} opened at line ${s.startLine}`);
    if (s.reader && !s.ignored) {
      s.reader.end?.();
      if (s.rows > 0 && s.accepted === 0 && s.firstBad) {
        this.fail(s.firstBad.line, s.firstBad.text, `section ${s.name} unusable, no valid row (${s.firstBad.reason})`);
      }
    }
    if (!s.ignored) this.data.sections.push({ name: s.name, startLine: s.startLine, endLine: no, rows: s.rows });
    if (s.name === 'PORTS' && !s.ignored) this.portRows = s.rows;
    this.open = undefined;
  }

  finish(): ParseResult<DbCsvData> {
    if (this.open) {
      const s = this.open;
      this.fail(
        s.startLine,
        `START_${s.name}`,
        `section ${s.name} never ends (END_${s.name} missing: file truncated?)`,
      );
    }
    if (this.data.sections.length === 0) {
      this.fail(
        this.lineNo === 0 ? undefined : this.lineNo,
        undefined,
        this.lineNo === 0 ? 'empty file' : 'no START_<SECTION> found',
      );
    }
    this.checkIndex();
    return { value: this.data, warnings: this.warnings };
  }

  /**
   * What ibdiagnet promised against what the file holds. A db_csv cut right after `END_LINKS`
   * (55% of it gone, PM_INFO and SM_INFO with it) parses cleanly otherwise: its first line
   * still says where the INDEX_TABLE was (`# INDEX_TABLE offset: 965824, line: 6214`), and the
   * INDEX_TABLE lists every section written. Only presence is checked: offsets and line numbers
   * are wrong after any editing, the names are not.
   */
  private checkIndex(): void {
    const problems: string[] = [];
    const { index, indexLine, sections } = this.data;
    if (!this.seen.has('INDEX_TABLE')) {
      if (indexLine !== undefined) {
        const last = sections.at(-1)?.name;
        problems.push(
          `file ends at line ${this.lineNo}, but its first line puts the INDEX_TABLE at line ${indexLine}: ` +
            `truncated, the sections written after ${last ?? 'the start'} are missing`,
        );
      }
    } else {
      const gone = index.filter((e) => !this.seen.has(e.name));
      if (gone.length > 0) {
        const names = gone.map((e) => `${e.name}${e.rows ? ` (${e.rows} rows)` : ''}`);
        problems.push(`section(s) listed in INDEX_TABLE but missing from the file: ${names.join(', ')}`);
      }
    }
    for (const p of problems) {
      if (this.strict) this.fail(this.lineNo, undefined, p);
      this.warn(this.lineNo, p);
    }
  }
}

/** Parse a whole db_csv given as text, as its bytes (what the file holds) or as an iterable of lines. */
export function parseDbCsv(input: LineSource, options?: DbCsvOptions): ParseResult<DbCsvData> {
  return runLineParser(new DbCsvParser(options), input);
}

/** Parse a db_csv from an async iterable of lines (e.g. `node:readline`). */
export function parseDbCsvAsync(
  lines: AsyncIterable<string> | Iterable<string>,
  options?: DbCsvOptions,
): Promise<ParseResult<DbCsvData>> {
  return runLineParserAsync(new DbCsvParser(options), lines);
}
