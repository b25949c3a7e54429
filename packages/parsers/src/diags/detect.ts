/**
 * Which infiniband-diags tool printed a pasted output, from its content: what `ibwatch import
 * diags FILE` reads when no `--format` is given. Each test is a line only that tool prints.
 */
export type DiagsFormat = 'iblinkinfo' | 'ibqueryerrors' | 'perfquery' | 'ibstat' | 'ibstatus';

export const DIAGS_FORMATS: readonly DiagsFormat[] = ['iblinkinfo', 'ibqueryerrors', 'perfquery', 'ibstat', 'ibstatus'];

const TESTS: [DiagsFormat, RegExp][] = [
  ['ibstatus', /^Infiniband device '[^']+' port \d+ status:/m], // ibstatus
  ['ibstat', /^CA '[^']+'\s*$/m], // ibstat
  ['perfquery', /^# Port (?:extended )?counters: Lid \d+ port \d+/im], // perfquery, perfquery -x
  // ibqueryerrors: its headers, or only its port lines (`   GUID 0x... port ALL: [...]`)
  ['ibqueryerrors', /^(?:Errors for |Data Counters for 0x)|^\s+GUID 0x[0-9a-fA-F]+ port (?:\d+|ALL):/m],
  ['iblinkinfo', /==\(.*\)==>|^(?:CA|Switch): /m], // iblinkinfo (default and -l)
];

/** The format of `text` (its first 64 KiB are enough), or undefined when none matches. */
export function detectDiagsFormat(text: string): DiagsFormat | undefined {
  const head = text.slice(0, 65_536);
  for (const [format, re] of TESTS) if (re.test(head)) return format;
  return undefined;
}
