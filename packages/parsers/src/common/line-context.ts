/**
 * Per-run bookkeeping shared by the line parsers of infiniband-diags, OpenSM and the node-name
 * map: line numbers, warnings and fatal errors ({@link ParseError}). Pure: no I/O.
 */
import type { Guid, ParseResult, ParseWarning } from '@ibwatch/fabric';
import { normalizeGuid } from '@ibwatch/fabric';
import { isBlank, looksBinary, stripCr } from './lines.ts';
import { ParseError } from './parse-error.ts';

/** Options every diags/OpenSM parser accepts. */
export interface ParseOptions {
  /** File name for warnings and {@link ParseError} messages. */
  file?: string;
}

/**
 * `next(line)` must be called first
 * in every `feed`; it strips a stray `\r`, counts the line and rejects binary garbage.
 */
export class LineContext {
  lineNo = 0;
  /** Lines that were not blank. */
  nonBlank = 0;
  readonly warnings: ParseWarning[] = [];

  constructor(
    readonly format: string,
    readonly file?: string,
  ) {}

  /** Count and sanity-check one line; returns it without a trailing `\r`. */
  next(raw: string): string {
    this.lineNo++;
    const line = stripCr(raw);
    if (looksBinary(line)) this.fail('binary data, not tool output', line);
    if (!isBlank(line)) this.nonBlank++;
    return line;
  }

  /** `line` null = a remark about the whole input (no line number). */
  warn(message: string, line: number | null = this.lineNo): void {
    const w: ParseWarning = { message };
    if (line !== null) w.line = line;
    if (this.file !== undefined) w.file = this.file;
    this.warnings.push(w);
  }

  /** Warn about a line the parser does not understand, quoting (a prefix of) it. */
  unknown(line: string, what = 'unrecognised line'): void {
    this.warn(`${what}: ${JSON.stringify(line.length > 160 ? line.slice(0, 160) + '...' : line)}`);
  }

  fail(reason: string, text?: string, line: number | null = this.lineNo): never {
    throw new ParseError({ format: this.format, reason, file: this.file, line: line ?? undefined, text });
  }

  /** Throw when nothing but blank lines was seen. */
  requireContent(): void {
    if (this.nonBlank === 0) this.fail('empty output', undefined, null);
  }

  /** Normalise a GUID or throw naming the line. */
  guid(raw: string, line?: string): Guid {
    const g = normalizeGuid(raw);
    if (g === undefined) this.fail(`invalid GUID ${JSON.stringify(raw)}`, line ?? raw);
    return g;
  }

  result<T>(value: T): ParseResult<T> {
    return { value, warnings: this.warnings };
  }
}
