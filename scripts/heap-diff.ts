// What grew between two V8 heap snapshots (the soak writes one when its warm-up ends and one at
// the end): `node --import tsx scripts/heap-diff.ts START.heapsnapshot END.heapsnapshot [--top 15]`.
// Objects are grouped by constructor name (other node kinds by kind: strings, arrays, code, ...);
// prints the totals of both snapshots and the groups whose self size (the objects' own bytes,
// not what they retain) grew or shrank the most. A leak shows as a group that keeps growing across runs of different
// lengths; one snapshot pair alone only says what to look at.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  diffHeaps,
  heapTotal,
  summarizeHeapSnapshot,
  type HeapGroup,
} from '../apps/collector/test/reliability/heap-summary.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '15' } },
});
if (positionals.length !== 2) {
  process.stderr.write('usage: heap-diff.ts START.heapsnapshot END.heapsnapshot [--top N]\n');
  process.exit(2);
}
const [a, b] = positionals.map((f) => summarizeHeapSnapshot(readFileSync(f!, 'utf8'))) as [
  Map<string, HeapGroup>,
  Map<string, HeapGroup>,
];
const mb = (n: number) => (n / 1048576).toFixed(2);
const [ta, tb] = [heapTotal(a), heapTotal(b)];
console.log(`start: ${ta.count} objects, ${mb(ta.bytes)} MB; end: ${tb.count} objects, ${mb(tb.bytes)} MB`);
console.log(`change: ${tb.count - ta.count} objects, ${mb(tb.bytes - ta.bytes)} MB`);
console.log('| group | objects (change) | self size at end, MB (change) |\n|---|---|---|');
for (const d of diffHeaps(a, b).slice(0, Number(values.top)))
  console.log(
    `| ${d.key.replaceAll('|', '\\|')} | ${d.countDelta >= 0 ? '+' : ''}${d.countDelta} | ` +
      `${mb(d.bytes)} (${d.bytesDelta >= 0 ? '+' : ''}${mb(d.bytesDelta)}) |`,
  );
