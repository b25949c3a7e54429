/** Line helpers shared by the text parsers. */

/**
 * Split text into lines. Handles `\n`, `\r\n` and lone `\r` endings and a leading UTF-8 BOM;
 * a final newline does not produce an extra empty line.
 */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === '') return [];
  const lines = body.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Strip one trailing `\r` (a CRLF file read line by line with `\n` as separator). */
export function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * True when a line looks like binary data rather than text: it holds NUL or other C0 control
 * characters (tab and form feed excepted) or U+FFFD, what a UTF-8 decoder makes of invalid bytes.
 */
export function looksBinary(line: string): boolean {
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(line);
}

/** `line.trim() === ''` without making the trimmed copy (called for every line of big outputs). */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    // The characters String.prototype.trim removes that occur in tool output.
    if (c !== 32 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 0xa0 && c !== 0xfeff) {
      return c > 127 && line.slice(i).trim() === '';
    }
  }
  return true;
}
