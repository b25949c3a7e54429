/**
 * nccl-tests parsers: `*_perf` stdout (with NCCL_DEBUG=INFO lines mixed in) and the `-J` JSON
 * report, both producing an {@link NcclRun}.
 */
import type { ParseResult } from '@ibwatch/fabric';
import { parseNcclTestsJson } from './json.ts';
import { parseNcclTestsText } from './text.ts';
import type { NcclParseOptions, NcclRun } from './types.ts';

export { parseNcclTestsJson, repairTruncatedJson, NCCL_TESTS_JSON_FORMAT } from './json.ts';
export { parseNcclTestsLines, parseNcclTestsText, NCCL_TESTS_FORMAT } from './text.ts';
export { ncclVersionFromCode, collectiveFromBinary } from './header.ts';
export type * from './types.ts';
export { NCCL_COLLECTIVES, MAX_EVIDENCE } from './types.ts';

/**
 * Parse nccl-tests output of either kind: text starting with `{` is taken as the `-J` JSON
 * report, anything else as stdout.
 *
 * @throws {ParseError} when the input cannot be used.
 */
export function parseNcclTests(input: string, options: NcclParseOptions = {}): ParseResult<NcclRun> {
  return input.trimStart().startsWith('{') ? parseNcclTestsJson(input, options) : parseNcclTestsText(input, options);
}
