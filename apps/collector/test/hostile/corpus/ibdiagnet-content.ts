// Hostile ibdiagnet2.db_csv content: single bit flips at telling places, odd numbers where
// counters and numbers go, and hostile node descriptions. Each case changes run A's db_csv
// (without its .cables, so the base imports 'ok').
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from '../../reliability/support.ts';
import { DATE, DB, dbLines, runDir, section, setColumn } from '../../reliability/corpus/run-dirs.ts';
import type { Context } from '../../../src/context.ts';
import type { HostileCase } from './types.ts';

type Ibd = Extract<HostileCase, { format: 'ibdiagnet2' }>;
const CABLES = 'ibdiagnet2.cables';
/** A port of run A: spine 0xb0cf0e0300d33fc0, port 1 (the first PM_INFO row). */
const SPINE = '0xb0cf0e0300d33fc0';

/** Run A with its db_csv lines replaced by `lines`. */
const withDb = (name: string, lines: string[]) => runDir(name, { [CABLES]: null, [DB]: lines.join('\n') });

/** `lines` with bit `bit` of character `at` of line `line` flipped (ASCII text stays one byte a character). */
function flip(lines: string[], line: number, at: number, bit: number): string[] {
  const l = lines[line]!;
  lines[line] = l.slice(0, at) + String.fromCharCode(l.charCodeAt(at) ^ (1 << bit)) + l.slice(at + 1);
  return lines;
}

let hours = 0;
/** Only a db_csv, dated later than every run imported before (so its counters are compared). */
function later(name: string, lines: string[]): string {
  const h = ++hours;
  const date =
    `2025-04-${String(1 + Math.floor(h / 24)).padStart(2, '0')} ` +
    `${String(h % 24).padStart(2, '0')}:43:18 UTC +0000`;
  const dir = join(tempDir('ibd'), name);
  mkdirSync(dir);
  writeFileSync(join(dir, DB), lines.join('\n').replace(DATE, date));
  return dir;
}

/** Opened findings of `kind` on the spine's port 1 (the PM cases' target). */
const findingsOn = (ctx: Context, kind: string) =>
  ctx.db
    .prepare("SELECT COUNT(*) FROM findings WHERE kind LIKE ? AND subject_key LIKE ? AND state != 'resolved'")
    .pluck()
    .get(`${kind}%`, `%${SPINE}%`) as number;

export function ibdiagnetContentCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: Omit<Ibd, 'format'>) => cases.push({ format: 'ibdiagnet2', ...c });
  const L = dbLines();
  const [nodes] = section(L, 'NODES');
  const [ports] = section(L, 'PORTS');
  const [links] = section(L, 'LINKS');

  // Bit flips.
  add({
    name: 'bit flip: START_NODES -> START_NODEC',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:303: END_NODES closes section NODEC opened at line 29/],
    input: () => withDb('flip-start', flip(dbLines(), nodes, 10, 4)),
  });
  add({
    name: 'bit flip: END_LINKS -> END_LINKC',
    expect: 'failed',
    mentions: [/ibdiagnet2\.db_csv:3095: END_LINKC closes section LINKS opened at line 2822/],
    input: () => withDb('flip-end', flip(dbLines(), section(L, 'LINKS')[1], 8, 4)),
  });
  add({
    name: 'bit flip: a newline in LINKS becomes "J" (two rows in one)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+: LINKS row skipped: row has 7 fields, header has 4/],
    input: () => {
      const l = dbLines();
      l.splice(links + 2, 2, `${l[links + 2]}J${l[links + 3]}`);
      return withDb('flip-nl', l);
    },
  });
  add({
    name: 'bit flip: a PM_INFO counter digit "0" -> "p"',
    expect: 'partial',
    mentions: [/PM_INFO column LinkDownedCounter: 1 invalid value\(s\) skipped \(first: "p"/],
    input: () =>
      withDb(
        'flip-digit',
        setColumn(dbLines(), 'PM_INFO', 'LinkDownedCounter', () => 'p', 1),
      ),
  });
  add({
    name: 'bit flip: a NodeGUID hex digit "c" -> "s"',
    expect: 'partial',
    mentions: [/NODES row skipped: bad NodeGUID "0xb0sf0e0300d33fc0"/],
    // 'c' (0x63) with bit 4 flipped is 's' (0x73).
    input: () =>
      withDb(
        'flip-guid',
        setColumn(dbLines(), 'NODES', 'NodeGUID', () => '0xb0sf0e0300d33fc0', 1),
      ),
  });
  add({
    name: 'bit flip: a comma in PORTS becomes "l" (a field less)',
    expect: 'partial',
    mentions: [/PORTS row skipped: row has \d+ fields, header has \d+/],
    input: () => withDb('flip-comma', flip(dbLines(), ports + 2, L[ports + 2]!.indexOf(','), 6)),
  });
  add({
    name: 'bit flip: a high bit in a node description (invalid UTF-8)',
    expect: 'ok',
    mentions: [],
    input: () => withDb('flip-desc', flip(dbLines(), nodes + 11, 3, 7)),
  });
  add({
    name: 'bit flip: the RUN_INFO year 2025 -> 2024 (files of another run)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.log is from another ibdiagnet run/],
    input: () =>
      withDb(
        'flip-date',
        flip(dbLines(), section(L, 'RUN_INFO')[0] + 2, L[section(L, 'RUN_INFO')[0] + 2]!.indexOf('2025-03-31') + 3, 0),
      ),
  });

  // Text before a row (issue 37: the NODES row was taken, its node named `xx"MF0;...`).
  for (const [what, sec, prefix, said] of [
    ['a NODES row', 'NODES', 'xx', /NODES row skipped: stray quote in NodeDesc/],
    ['a NODES row (garbage)', 'NODES', '#$%&', /NODES row skipped: stray quote in NodeDesc/],
    ['a WARNINGS_FW_CHECK row', 'WARNINGS_FW_CHECK', 'xx', /WARNINGS_FW_CHECK row skipped: bad Scope "xxNODE"/],
  ] as const) {
    const row = section(L, sec)[0] + 2;
    add({
      name: `text before ${what} (the row is skipped, named)`,
      expect: 'partial',
      mentions: [new RegExp(`ibdiagnet2\\.db_csv:${row + 1}: ${said.source}`)],
      input: () => {
        const l = dbLines();
        l[row] = prefix + l[row]!;
        return withDb(`prefix-${sec}-${prefix.length}`, l);
      },
      check: (ctx) =>
        expect(ctx.db.prepare(`SELECT COUNT(*) FROM nodes WHERE description LIKE '%"%'`).pluck().get()).toBe(0),
    });
  }

  // Odd numbers.
  add({
    name: 'SymbolErrorCounterExt of 2^64 - 1 after a baseline (saturated, finding opened)',
    expect: 'ok',
    mentions: [],
    input: () =>
      later(
        'max64',
        setColumn(dbLines(), 'PM_INFO', 'SymbolErrorCounterExt', () => '18446744073709551615', 1),
      ),
    check: (ctx) => expect(findingsOn(ctx, 'counter-saturated')).toBeGreaterThan(0),
  });
  for (const [what, cell, outcome, mention] of [
    ['2^64', '18446744073709551616', 'partial', /exceeds 64 bits/],
    ['-0', '-0', 'partial', /invalid value/],
    ['+5', '+5', 'partial', /invalid value/],
    ['1e3', '1e3', 'partial', /invalid value/],
    ['1.5', '1.5', 'partial', /invalid value/],
    ['NaN', 'NaN', 'partial', /invalid value/],
    ['Infinity', 'Infinity', 'partial', /invalid value/],
    ['Arabic-Indic digits', '\u0661\u0662', 'partial', /invalid value/],
    ['hex 0x10 in a decimal column', '0x10', 'ok', undefined],
    ['20 digits with leading zeros', '00000000000000000012', 'ok', undefined],
  ] as const) {
    add({
      name: `PM_INFO SymbolErrorCounter of ${what}`,
      expect: outcome,
      mentions: mention ? [mention] : [],
      input: () =>
        later(
          `odd-${what}`,
          setColumn(dbLines(), 'PM_INFO', 'SymbolErrorCounter', () => cell, 1),
        ),
    });
  }
  add({
    name: 'PM_INFO PortNumber 65536',
    expect: 'partial',
    mentions: [/PM_INFO row skipped: bad PortNumber/],
    input: () =>
      withDb(
        'port-65536',
        setColumn(dbLines(), 'PM_INFO', 'PortNumber', () => '65536', 1),
      ),
  });
  add({
    name: 'NODES NumPorts -1 (ignored, the node kept)',
    expect: 'partial',
    mentions: [/NODES column NumPorts: 1 value\(s\) outside 0\.\.255 ignored \(first: -1\)/],
    input: () =>
      withDb(
        'numports',
        setColumn(dbLines(), 'NODES', 'NumPorts', () => '-1', 1),
      ),
  });
  add({
    name: 'PORTS LID 70000 (beyond 16 bits: ignored, the port kept)',
    expect: 'partial',
    mentions: [/PORTS column LID: 1 value\(s\) outside 0\.\.65535 ignored \(first: 70000\)/],
    input: () =>
      withDb(
        'lid',
        setColumn(dbLines(), 'PORTS', 'LID', () => '70000', 1),
      ),
  });
  add({
    name: 'LINKS port number 300 (beyond 255)',
    expect: 'partial',
    mentions: [/LINKS row skipped: bad port number 300/],
    input: () =>
      withDb(
        'link-port',
        setColumn(dbLines(), 'LINKS', 'PortNum1', () => '300', 1),
      ),
  });

  // Hostile node descriptions (defect 6 and the inert-markup rule).
  const desc = (name: string, text: string) => {
    const l = dbLines();
    l[nodes + 11] = l[nodes + 11]!.replace(/^"[^"]*"/, `"${text}"`);
    return withDb(name, l);
  };
  add({
    name: 'a node description of 300 KB (cut to 128 with a warning)',
    expect: 'partial',
    mentions: [
      /1 node descriptions longer than 128 characters cut to 128 \(first: node 0x[0-9a-f]{16}, 300000 characters\)/,
    ],
    input: () => desc('desc-300k', 'D'.repeat(300_000)),
    check: (ctx) =>
      expect(ctx.db.prepare('SELECT MAX(length(description)) FROM nodes').pluck().get()).toBeLessThanOrEqual(128),
  });
  add({
    name: 'a node description of 50 MB (the row is skipped: line over 1 MiB)',
    expect: 'partial',
    mentions: [/ibdiagnet2\.db_csv:\d+: NODES row skipped: line longer than 1048576 bytes/],
    input: () => desc('desc-50m', 'E'.repeat(50 << 20)),
  });
  for (const [what, text] of [
    ['<script> markup', '<script>alert(1)</script> mlx5_0'],
    ['a spreadsheet formula', "=cmd|' /C calc'!A0 mlx5_0"],
    ['a right-to-left override', 'gpu-\u202e0x0_5xlm node'],
    ['quotes and commas', 'a ""quoted"", b, c mlx5_1'],
  ] as const) {
    add({
      name: `a node description with ${what} (stored as text)`,
      expect: 'ok',
      mentions: [],
      input: () => desc(`desc-${what.replace(/\W/g, '')}`, text),
      check: (ctx) =>
        expect(
          ctx.db.prepare('SELECT COUNT(*) FROM nodes WHERE description = ?').pluck().get(text.replace(/""/g, '"')),
        ).toBe(1),
    });
  }
  return cases;
}
