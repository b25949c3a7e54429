/**
 * Shared bookkeeping of the ibdiagnet text dumps (.net_dump, .pm, .sm, .cables, .lst): the
 * `# Running timestamp` header, the `# File closed at : <ts>` trailer (its absence means the
 * file was cut short), binary-data detection and warnings with line numbers.
 */
import type { ParseWarning } from '@ibwatch/fabric';
import { looksBinary } from '../common/lines.ts';
import { ParseError } from '../common/parse-error.ts';
import { MAX_LINE_BYTES } from '../common/line-runner.ts';
import { readHeaderLine } from './values.ts';
import type { DumpHeader } from './values.ts';

export class TextDump {
  readonly header: DumpHeader = {};
  readonly warnings: ParseWarning[] = [];
  lineNo = 0;
  private closed = false;
  private content = 0;

  constructor(
    readonly format: string,
    readonly file: string | undefined,
  ) {}

  /** Count the line; consume `#` lines (true). Throws on binary data. */
  pre(line: string): boolean {
    this.lineNo++;
    if (line.length === 0) return true;
    if (line.charCodeAt(0) === 35 /* # */) {
      if (line.startsWith('# File closed at')) this.closed = true;
      else readHeaderLine(line, this.header);
      return true;
    }
    if (looksBinary(line)) this.fail(this.lineNo, line, 'binary data');
    this.content++;
    return false;
  }

  /**
   * A line over `MAX_LINE_BYTES`, of which only `head` was read (`LineParser.skipLine`): binary
   * data fails as in {@link pre}, anything else is a warning. It is not content: a file of
   * nothing but such lines is "no ibdiagnet content".
   */
  skipped(head: string): void {
    this.lineNo++;
    if (looksBinary(head)) this.fail(this.lineNo, head, 'binary data');
    this.warn(`line longer than ${MAX_LINE_BYTES} bytes skipped: ${JSON.stringify(head.slice(0, 60))}...`);
  }

  /** A content line a parser read from bytes itself, known to be printable text. */
  countRow(): void {
    this.lineNo++;
    this.content++;
  }

  warn(message: string, line = this.lineNo): void {
    this.warnings.push({ line, message, file: this.file ?? this.format });
  }

  fail(line: number | undefined, text: string | undefined, reason: string): never {
    throw new ParseError({ format: this.format, file: this.file, line, text, reason });
  }

  /** End-of-input checks: empty input is unusable; a missing trailer is a warning. */
  finishChecks(requireTrailer = true): void {
    if (this.lineNo === 0) this.fail(undefined, undefined, 'empty file');
    if (this.content === 0 && this.header.runningTimestamp === undefined) {
      this.fail(undefined, undefined, 'no ibdiagnet content');
    }
    if (requireTrailer && !this.closed) this.warn('no "# File closed at" trailer: file truncated?');
  }
}
