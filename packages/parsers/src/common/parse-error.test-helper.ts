/** Test helper: run `fn` and return the ParseError it throws. */
import { ParseError } from './parse-error.ts';

export function parseError(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error('expected a ParseError');
}
