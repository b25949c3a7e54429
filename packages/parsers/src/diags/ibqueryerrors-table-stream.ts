/** {@link ibqueryerrorsTable} fed chunk by chunk while the tool still writes: the PM sweep's parse. */
import type { ParseResult } from '@ibwatch/fabric';
import { type IbqueryerrorsTable, type IbqueryerrorsTableOptions, TableReader } from './ibqueryerrors-table.ts';

const GIVE_UP_WARNINGS = 1000;

/**
 * {@link ibqueryerrorsTable} fed chunk by chunk while the tool still writes its stdout, so that
 * little of the parse is left when the tool exits (a PM sweep's `--counters` run streams ~10 MB
 * over seconds at 4k GPUs). Whole lines are read as they complete; the result, warnings and
 * `ParseError`s are those of `ibqueryerrorsTable` over the concatenated chunks. A `ParseError`
 * is kept and thrown by `end()`. `sizeHint`: the expected output size (the last sweep's), and
 * `rowsHint` the rows of the last sweep's table, for the table's first allocation (see
 * `TableReader.begin`).
 */
export class IbqueryerrorsTableStream {
  private readonly reader: TableReader;
  /** The unfinished last line of the chunks so far. */
  private carry: Uint8Array | null = null;
  private error: unknown;
  /** Bytes pushed so far. */
  bytes = 0;

  /** The file name of warnings and errors (options.file). */
  readonly file: string | undefined;

  constructor(options: IbqueryerrorsTableOptions = {}, sizeHint = 0, rowsHint = 0) {
    this.file = options.file;
    this.reader = new TableReader(options);
    this.reader.begin(sizeHint, rowsHint);
  }

  /**
   * False once a chunk made the parse fail (`end()` throws that error), or once the output
   * earned more than {@link GIVE_UP_WARNINGS} warnings: that is not the tool's output but a
   * flood (the runner's output cap will kill it), and reading it line by line only slows the
   * reading of the pipe. A caller then parses the whole output, if it is kept, with
   * `ibqueryerrorsTable`.
   */
  get ok(): boolean {
    return this.error === undefined;
  }

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.error !== undefined || chunk.length === 0) return;
    if (this.reader.warningCount > GIVE_UP_WARNINGS) {
      this.error = new Error(`more than ${GIVE_UP_WARNINGS} warnings: not parsed as it came`);
      return;
    }
    try {
      const last = chunk.lastIndexOf(10);
      if (last === -1) {
        this.carry = concat(this.carry, chunk);
        return;
      }
      let from = 0;
      if (this.carry) {
        // The carried line ends in this chunk: read it whole, then the rest of the chunk in place.
        const first = chunk.indexOf(10);
        const line = concat(this.carry, chunk.subarray(0, first + 1));
        this.carry = null;
        this.reader.lines(line, 0, line.length);
        from = first + 1;
      }
      this.reader.lines(chunk, from, last + 1);
      // A copy: the caller may reuse its chunk (a Buffer's slice() would be a view).
      if (last + 1 < chunk.length) this.carry = concat(null, chunk.subarray(last + 1));
    } catch (e) {
      this.error = e;
    }
  }

  end(): ParseResult<IbqueryerrorsTable> {
    if (this.error !== undefined) throw this.error;
    if (this.carry) this.reader.lines(this.carry, 0, this.carry.length);
    this.carry = null;
    return this.reader.finish();
  }
}

function concat(a: Uint8Array | null, b: Uint8Array): Uint8Array {
  const out = new Uint8Array((a?.length ?? 0) + b.length);
  if (a) out.set(a);
  out.set(b, a?.length ?? 0);
  return out;
}
