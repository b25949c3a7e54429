/**
 * The one error type every ibwatch parser throws when its input cannot be used at all.
 * Recoverable problems are not errors: they become `ParseWarning`s next to the value.
 */

/** Fields of a {@link ParseError}, for the object form of its constructor. */
export interface ParseErrorInit {
  /** Input format name, e.g. `nccl-tests`, `ibdiagnet2.db_csv`. */
  format: string;
  /** Why the input is unusable. */
  reason: string;
  /** File name the text came from, when the caller knows it. */
  file?: string;
  /** 1-based line number of the offending line. */
  line?: number;
  /** The offending text (shortened in the message, kept whole here). */
  text?: string;
}

const MAX_TEXT_IN_MESSAGE = 120;

/**
 * Unusable input. The message reads `format[:file][:line]: reason[: "text"]`, e.g.
 * `nccl-tests:run.log:42: row has 5 fields, expected 13: "  1024  256  float"`.
 *
 * Construct either positionally `new ParseError(format, line, text, reason, file?)` or with a
 * {@link ParseErrorInit} object.
 */
export class ParseError extends Error {
  readonly format: string;
  readonly file?: string;
  readonly line?: number;
  readonly text?: string;
  readonly reason: string;

  constructor(init: ParseErrorInit);
  constructor(format: string, line: number | undefined, text: string | undefined, reason: string, file?: string);
  constructor(a: ParseErrorInit | string, line?: number, text?: string, reason?: string, file?: string) {
    const init: ParseErrorInit =
      typeof a === 'string' ? { format: a, line, text, reason: reason ?? 'unparseable input', file } : a;
    super(formatMessage(init));
    this.name = 'ParseError';
    this.format = init.format;
    this.reason = init.reason;
    if (init.file !== undefined) this.file = init.file;
    if (init.line !== undefined) this.line = init.line;
    if (init.text !== undefined) this.text = init.text;
  }
}

function formatMessage(init: ParseErrorInit): string {
  let where = init.format;
  if (init.file !== undefined) where += `:${init.file}`;
  if (init.line !== undefined) where += `:${init.line}`;
  let message = `${where}: ${init.reason}`;
  if (init.text !== undefined) {
    const shown = init.text.length > MAX_TEXT_IN_MESSAGE ? `${init.text.slice(0, MAX_TEXT_IN_MESSAGE)}...` : init.text;
    message += `: ${JSON.stringify(shown)}`;
  }
  return message;
}
