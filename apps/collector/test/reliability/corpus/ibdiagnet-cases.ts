// Bad ibdiagnet2 output directories, generated from the real run ndr-fat-tree-a: each case
// copies the run (symlinks for untouched files) and breaks one thing.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAD_FIXTURES, RUN_A, RUN_B, tempDir } from '../support.ts';
import { DB, dbLines, garbage, LATER, laterDbOnly, runDir, section, setColumn, without } from './run-dirs.ts';
import type { CorpusCase } from './types.ts';

export function ibdiagnetCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const add = (c: Omit<Extract<CorpusCase, { format: 'ibdiagnet2' }>, 'format'>) =>
    cases.push({ format: 'ibdiagnet2', ...c });
  const L = dbLines();
  const [pmStart, pmEnd] = section(L, 'PM_INFO');
  const [nodesStart] = section(L, 'NODES');

  add({
    name: 'empty directory',
    expect: 'failed',
    mentions: [/no ibdiagnet2\.\* files/],
    input: () => runDir('empty', Object.fromEntries(readdirSync(RUN_A).map((f) => [f, null]))),
  });
  add({
    name: 'directory does not exist',
    expect: 'failed',
    mentions: [/no such directory/],
    input: () => join(tempDir('ibd'), 'missing'),
  });
  add({
    name: 'path is a file',
    expect: 'failed',
    mentions: [/not a directory/],
    input: () => {
      const d = tempDir('ibd');
      copyFileSync(join(RUN_A, 'ibdiagnet2.sm'), join(d, 'f'));
      return join(d, 'f');
    },
  });
  add({
    name: 'db_csv empty (0 bytes)',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv/],
    input: () => runDir('empty-db', { [DB]: '' }),
  });
  add({
    name: 'db_csv binary garbage',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => runDir('bin-db', { [DB]: garbage(64 * 1024, 1) }),
  });
  add({
    name: 'db_csv ELF header then garbage (hand-made)',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv/],
    input: () => runDir('elf-db', { [DB]: readFileSync(join(BAD_FIXTURES, 'ibdiagnet2/elf-garbage.db_csv')) }),
  });
  add({
    name: 'db_csv truncated mid-file (inside PM_INFO, mid-row)',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => runDir('cut-pm', { [DB]: L.slice(0, pmStart + 40).join('\n') + '\n' + L[pmStart + 40]!.slice(0, 37) }),
  });
  add({
    name: 'db_csv truncated at a line end inside NODES',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => runDir('cut-nodes', { [DB]: L.slice(0, nodesStart + 50).join('\n') + '\n' }),
  });
  add({
    name: 'db_csv truncated to its first 100 bytes',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv/],
    input: () => runDir('cut-100', { [DB]: L.join('\n').slice(0, 100) }),
  });
  add({
    name: 'db_csv binary line inside PM_INFO',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => {
      const l = dbLines();
      l.splice(
        pmStart + 5,
        0,
        garbage(300, 2)
          .toString('latin1')
          .replace(/[\r\n]/g, ''),
      );
      return runDir('bin-line', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv with CRLF line endings',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => runDir('crlf', { [DB]: L.join('\r\n') }),
  });
  add({
    name: 'db_csv with a 5 MB line inside NODES',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => {
      const l = dbLines();
      l.splice(nodesStart + 3, 0, `"${'x'.repeat(5 << 20)}",65,2`);
      return runDir('huge-line', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv one 5 MB line without any newline',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv/],
    input: () => runDir('one-line', { [DB]: 'START_NODES,' + 'A'.repeat(5 << 20) }),
  });
  add({
    name: 'db_csv without NODES section (topology from .lst)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => runDir('no-nodes', { [DB]: without(dbLines(), 'NODES').join('\n') }),
  });
  add({
    name: 'db_csv without PM_INFO section',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => runDir('no-pm', { [DB]: without(dbLines(), 'PM_INFO').join('\n') }),
  });
  add({
    name: 'db_csv without LINKS section',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => runDir('no-links', { [DB]: without(dbLines(), 'LINKS').join('\n') }),
  });
  add({
    name: 'db_csv sections reordered (PM_INFO, LINKS first; RUN_INFO last)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => {
      const l = dbLines();
      const take = (n: string) => {
        const [s, e] = section(l, n);
        return l.slice(s, e + 1);
      };
      const moved = [...take('PM_INFO'), ...take('LINKS')];
      const rest = without(without(without(l, 'PM_INFO'), 'LINKS'), 'RUN_INFO');
      return runDir('reordered', { [DB]: [...moved, ...rest, ...take('RUN_INFO')].join('\n') });
    },
  });
  add({
    name: 'db_csv NODES section duplicated',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+.*NODES|NODES.*ibdiagnet2\.db_csv:\d+|duplicat/i],
    input: () => {
      const l = dbLines();
      const [s, e] = section(l, 'NODES');
      return runDir('dup-nodes', { [DB]: [...l, ...l.slice(s, e + 1)].join('\n') });
    },
  });
  add({
    name: 'db_csv PM_INFO section duplicated',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+|duplicat/i],
    input: () => runDir('dup-pm', { [DB]: [...L, ...L.slice(pmStart, pmEnd + 1)].join('\n') }),
  });
  add({
    name: 'db_csv START_LINKS nested inside NODES',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => {
      const l = dbLines();
      l.splice(nodesStart + 4, 0, 'START_LINKS');
      return runDir('nested', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv END_PM_INFO without START',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () => {
      const l = dbLines();
      l.splice(pmStart, 1, '');
      return runDir('end-no-start', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv NODES header row missing',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+: section NODES missing column/],
    input: () => {
      const l = dbLines();
      l.splice(nodesStart + 1, 1);
      return runDir('no-header', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv unknown columns in NODES and PM_INFO',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => {
      const l = dbLines();
      for (const n of ['NODES', 'PM_INFO']) {
        const [s, e] = section(l, n);
        for (let i = s + 1; i < e; i++) l[i] = l[i]!.replace(',', i === s + 1 ? ',FutureColumn,' : ',42,');
      }
      return runDir('unknown-cols', { [DB]: l.join('\n') });
    },
  });
  add({
    name: 'db_csv unknown section',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () =>
      runDir('unknown-section', { [DB]: [...L, 'START_FUTURE_THING', 'A,B', '1,2', 'END_FUTURE_THING'].join('\n') }),
  });
  add({
    name: 'counters at 2^60 (64-bit twin)',
    expect: 'ok',
    mentions: [],
    input: () =>
      laterDbOnly(
        'c2p60',
        setColumn(dbLines(), 'PM_INFO', 'SymbolErrorCounterExt', () => String(2n ** 60n)),
      ),
  });
  add({
    name: 'counters beyond 2^64',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () =>
      laterDbOnly(
        'c2p64',
        setColumn(dbLines(), 'PM_INFO', 'PortXmitDataExtended', () => String(2n ** 64n + 5n)),
      ),
  });
  add({
    name: 'negative counters',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () =>
      laterDbOnly(
        'neg',
        setColumn(dbLines(), 'PM_INFO', 'PortRcvErrors', () => '-7'),
      ),
  });
  add({
    name: 'non-numeric counters',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () =>
      laterDbOnly(
        'nan',
        setColumn(dbLines(), 'PM_INFO', 'SymbolErrorCounter', (i) => ['abc', '1e5', '0xZZ'][i]!),
      ),
  });
  add({
    name: 'GUIDs as 0X5C25... (upper-case prefix)',
    expect: 'ok',
    mentions: [],
    sameFabric: true,
    input: () =>
      laterDbOnly(
        'guid-0X',
        dbLines().map((l) => l.replace(/0x5c2573/g, '0X5C2573')),
      ),
  });
  add({
    name: 'GUIDs without 0x prefix',
    expect: 'ok',
    mentions: [],
    sameFabric: true,
    input: () =>
      laterDbOnly(
        'guid-bare',
        setColumn(dbLines(), 'PM_INFO', 'NodeGUID', (i) => L[pmStart + 2 + i]!.split(',')[0]!.slice(2)),
      ),
  });
  add({
    name: 'GUIDs garbage in LINKS',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+/],
    input: () =>
      laterDbOnly(
        'guid-garbage',
        setColumn(dbLines(), 'LINKS', 'NodeGuid1', (i) => ['zzzz', '0x', '0x12345678901234567890'][i]!),
      ),
  });
  add({
    name: 'files of two runs: db_csv of A, the rest of B',
    expect: 'partial',
    mentions: [/another ibdiagnet run/],
    input: () => runDir('mixed-ab', { [DB]: readFileSync(join(RUN_A, DB)) }, RUN_B),
  });
  add({
    name: 'files of two runs: .log and .sm of another run',
    expect: 'partial',
    mentions: [/ibdiagnet2\.log.*another ibdiagnet run|another ibdiagnet run/],
    input: () =>
      runDir('mixed-log', {
        'ibdiagnet2.log': readFileSync(join(RUN_B, 'ibdiagnet2.log')),
        'ibdiagnet2.sm': readFileSync(join(RUN_B, 'ibdiagnet2.sm')),
      }),
  });
  add({
    name: 'secondary .net_dump binary garbage',
    expect: 'partial',
    mentions: [/ibdiagnet2\.net_dump/],
    input: () => runDir('bin-netdump', { 'ibdiagnet2.net_dump': garbage(8192, 3) }),
  });
  add({
    name: 'secondary .sm truncated mid-line',
    expect: 'partial',
    mentions: [/ibdiagnet2\./],
    input: () =>
      runDir('cut-sm', { 'ibdiagnet2.sm': readFileSync(join(RUN_A, 'ibdiagnet2.sm'), 'utf8').slice(0, 300) }),
  });
  add({
    name: 'db_csv missing, only secondary files',
    expect: 'partial',
    mentions: [/ibdiagnet2\./],
    input: () => runDir('no-db', { [DB]: null }),
  });
  add({
    name: 'db_csv with NUL bytes in a node description',
    expect: 'partial',
    mentions: [/ibdiagnet2\./],
    input: () => {
      const l = dbLines();
      l[nodesStart + 2] = l[nodesStart + 2]!.replace('MF0;', 'MF0\0\0;');
      return runDir('nul', { [DB]: l.join('\n') });
    },
  });
  // A BOM (a file re-saved by a Windows editor) is not content: the run imports as the original does.
  add({
    name: 'db_csv with a UTF-8 BOM',
    expect: 'partial',
    mentions: [/ibdiagnet2\.cables/],
    input: () => runDir('bom', { [DB]: '\ufeff' + L.join('\n') }),
  });
  return cases;
}
