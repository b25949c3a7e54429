// Bad infiniband-diags outputs, fed to the collector's diags source through the runner seam
// (a ToolRunner whose run() returns the text as the tool's stdout); the rest of the fabric
// answers with the real lab captures.
import { seededRandom } from '@ibwatch/fabric';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAD_FIXTURES, labOutputs, PARSER_FIXTURES } from '../support.ts';
import type { CannedOutput } from '../support.ts';
import type { CorpusCase } from './types.ts';

const ERRS = 'ibqueryerrors --data --threshold-file /dev/null';
const CNTS = 'ibqueryerrors --counters';
const fixture = (n: string) => readFileSync(join(PARSER_FIXTURES, 'diags', n), 'utf8');
const junk = (n: number, seed: number) => {
  const r = seededRandom(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256))).toString('latin1');
};

export function diagsCases(): CorpusCase[] {
  const lab = labOutputs();
  const errs = lab[ERRS]!.stdout!;
  const cnts = lab[CNTS]!.stdout!;
  const topo = lab.ibnetdiscover!.stdout!;
  const cases: CorpusCase[] = [];
  const add = (
    scan: 'topology' | 'pm' | 'sm',
    name: string,
    expect: CorpusCase['expect'],
    mentions: RegExp[],
    outputs: Record<string, CannedOutput>,
  ) =>
    cases.push({ format: 'infiniband-diags', scan, name, expect, mentions, outputs: () => ({ ...lab, ...outputs }) });

  add('topology', 'ibnetdiscover empty stdout', 'failed', [/ibnetdiscover/], { ibnetdiscover: { stdout: '' } });
  add('topology', 'ibnetdiscover binary garbage', 'failed', [/ibnetdiscover:\d+/], {
    ibnetdiscover: { stdout: junk(30000, 4) },
  });
  add('topology', 'ibnetdiscover truncated mid-line', 'partial', [/ibnetdiscover:\d+/], {
    ibnetdiscover: { stdout: topo.slice(0, Math.floor(topo.length * 0.6)) },
  });
  add('topology', 'ibnetdiscover with CRLF', 'ok', [], { ibnetdiscover: { stdout: topo.replace(/\n/g, '\r\n') } });
  add('topology', 'ibnetdiscover with a 5 MB line', 'partial', [/ibnetdiscover:\d+/], {
    ibnetdiscover: { stdout: topo.replace('\n\n', `\n${'z'.repeat(5 << 20)}\n\n`) },
  });
  add('topology', 'ibnetdiscover GUIDs in odd forms (hand-made fixture)', 'partial', [/ibnetdiscover:\d+/], {
    ibnetdiscover: { stdout: topo + fixture('ibnetdiscover-p-fields.bad.txt') },
  });
  add('topology', 'iblinkinfo binary garbage', 'failed', [/iblinkinfo:\d+/], { iblinkinfo: { stdout: junk(5000, 5) } });
  add('pm', 'ibqueryerrors empty stdout, exit 1', 'failed', [/ibqueryerrors.*exit 1/], {
    [ERRS]: { stdout: '', stderr: 'ibwarn: [123] mad_rpc: _do_madrpc failed', exitCode: 1 },
  });
  add('pm', 'ibqueryerrors binary garbage', 'failed', [/ibqueryerrors-errors:\d+/], {
    [ERRS]: { stdout: junk(20000, 6), exitCode: 1 },
  });
  add('pm', 'ibqueryerrors truncated mid-item (hand-made fixture)', 'partial', [/ibqueryerrors-errors:\d+/], {
    [ERRS]: { stdout: fixture('ibqueryerrors-truncated.bad.txt'), exitCode: 1 },
  });
  add('pm', 'ibqueryerrors counters beyond 2^64 and negative', 'partial', [/ibqueryerrors-errors:\d+/], {
    [ERRS]: {
      stdout: readFileSync(join(BAD_FIXTURES, 'diags/ibqueryerrors-impossible-counters.bad.txt'), 'utf8'),
      exitCode: 1,
    },
  });
  add('pm', 'ibqueryerrors --counters cut after 1 KB', 'partial', [/ibqueryerrors-counters:\d+/], {
    [CNTS]: { stdout: cnts.slice(0, 1024) },
  });
  add('pm', 'ibqueryerrors with CRLF', 'ok', [], {
    [ERRS]: { stdout: errs.replace(/\n/g, '\r\n'), exitCode: 1 },
    [CNTS]: { stdout: cnts.replace(/\n/g, '\r\n') },
  });
  add('sm', 'saquery SMIR truncated (hand-made fixture)', 'partial', [/saquery/], {
    'saquery SMIR': { stdout: fixture('saquery-smir-truncated.bad.txt') },
  });
  add('sm', 'saquery SMIR binary garbage', 'failed', [/saquery(-smir)?:\d+/], {
    'saquery SMIR': { stdout: junk(4000, 7) },
  });
  return cases;
}
