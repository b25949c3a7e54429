import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { tableRow } from '@ibwatch/fabric';
import { describe, expect, it } from 'vitest';
import { parseDbCsvAsync } from './db-csv.ts';
import { parseIbdiagnetFiles } from './parse-files.ts';
import { parseError } from '../common/parse-error.test-helper.ts';
import { fixture, fixturesDir, readRunDir, real, runA, runB } from './fixtures.test-helper.ts';

/** The lines of a file through `node:readline`, as a caller streaming text would give them. */
const readFileLines = (path: string): AsyncIterable<string> =>
  createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });

/*
 * Port total 857 = 551 PORTS rows + 306 DOWN switch ports only in .net_dump
 * (`grep -c ' : DOWN ' ibdiagnet2.net_dump`); every other .net_dump row matches a PORTS row.
 */
describe('readIbdiagnetRun()', () => {
  it('joins the real ndr-fat-tree-a run and skips the .cables of an older run, naming it', async () => {
    const { value: s, warnings } = readRunDir(runA);
    expect(s.source).toBe('ibdiagnet');
    expect(s.takenAt).toBe('2025-03-31T23:43:18Z');
    expect([s.nodes.length, s.ports.length, s.links.length, s.counters.rows, s.sms.length]).toEqual([
      272, 857, 271, 542, 1,
    ]);
    expect(s.cables).toEqual([]);
    expect(warnings).toEqual([
      {
        file: 'ibdiagnet2.cables',
        message:
          'ibdiagnet2.cables is from another ibdiagnet run (2025-03-15 06:54:44 ' +
          'UTC +0000) than ibdiagnet2.db_csv (2025-03-31 23:43:18 UTC +0000); skipped',
      },
    ]);
    expect(s.meta.filesSkipped).toBe('ibdiagnet2.cables');
    expect(s.meta.filesUsed).toBe('ibdiagnet2.db_csv,ibdiagnet2.log,ibdiagnet2.net_dump,ibdiagnet2.sm');
    expect(s.counterDeltas?.intervalSeconds).toBe(1);
    expect(s.counterDeltas?.ports.rows).toBe(542);
  });

  it('takes from .net_dump read for port records only the snapshot a full read gives', async () => {
    // With db_csv's links, readIbdiagnetRun reads .net_dump with `fields: 'ports'`.
    const files = {
      dbCsv: real(runA, 'ibdiagnet2.db_csv'),
      log: real(runA, 'ibdiagnet2.log'),
      netDump: real(runA, 'ibdiagnet2.net_dump'),
      sm: real(runA, 'ibdiagnet2.sm'),
    };
    const full = parseIbdiagnetFiles(files);
    const { value } = readRunDir(runA);
    // The directory also has an .cables of another run, which the full read was not given.
    expect(value).toEqual({ ...full.value, meta: { ...full.value.meta, filesSkipped: 'ibdiagnet2.cables' } });
    // .net_dump lists switch ports only, with their front-panel labels (`1/1/1`): 583 of the
    // 594: not port 0, and not port 65 of the two switches whose blocks there stop at port 64.
    const switches = new Set(value.nodes.filter((n) => n.type === 'switch').map((n) => n.guid));
    const labelled = value.ports.filter((p) => p.label !== undefined);
    expect(labelled).toHaveLength(583);
    expect(labelled.every((p) => switches.has(p.nodeGuid))).toBe(true);
  });

  it('adds DOWN ports from .net_dump with their labels, and the SM LID from .sm', async () => {
    const { value: s } = readRunDir(runA);
    expect(s.ports.filter((p) => p.state === 'Down')).toHaveLength(306);
    expect(s.ports.find((p) => p.nodeGuid === '0xb0cf0e0300e5b940' && p.portNum === 33)).toEqual({
      nodeGuid: '0xb0cf0e0300e5b940',
      portNum: 33,
      state: 'Down',
      physState: 'Polling',
      label: '1/17/1',
    });
    expect(s.ports.find((p) => p.nodeGuid === '0xb0cf0e0300e5b940' && p.portNum === 1)).toMatchObject({
      label: '1/1/1',
      speedActive: 'NDR',
      widthActive: '4X',
    });
    expect(s.sms).toEqual([
      {
        guid: '0xb0cf0e0300d33fc0',
        priority: 12,
        state: 'MASTER',
        lid: 180,
        activityCount: 4202301n,
        nodeDescription: 'MF0;ib-switch-sequoia:MQM9700/U1',
      },
    ]);
    const spine = s.nodes.find((n) => n.guid === '0xb0cf0e0300d33fc0')!;
    expect([spine.lid, spine.temperatureC]).toEqual([180, 46]);
  });

  it('reports db_csv findings once, dropping the log lines that repeat them', async () => {
    const { value: s } = readRunDir(runA);
    expect(s.toolFindings).toHaveLength(24);
    expect(s.toolFindings.filter((f) => f.code === 'NODE_WRONG_FW_VERSION')).toHaveLength(7);
    expect(s.meta['stage.Discovery.warnings']).toBe('17');
    expect(s.meta['check.FW Check']).toBe('warnings');
  });

  it('joins the real ndr-fat-tree-b run, which has no counters', async () => {
    const { value: s, warnings } = readRunDir(runB);
    expect(warnings).toEqual([]);
    expect(s.takenAt).toBe('2025-03-15T22:32:20Z');
    expect([s.nodes.length, s.ports.length, s.links.length, s.counters.rows, s.sms.length]).toEqual([
      272, 857, 271, 0, 1,
    ]);
    expect(s.sms[0]).toMatchObject({ priority: 12, state: 'MASTER', activityCount: 19231n, lid: 180 });
    expect(s.counterDeltas).toBeUndefined();
    expect(s.toolFindings).toHaveLength(9);
  });

  it('skips the .net_dump and .cables of another run in the two-runs fixture, keeping the .sm standby', async () => {
    const { value: s, warnings } = readRunDir(resolve(fixturesDir, 'two-runs'));
    expect(warnings.map((w) => w.file)).toEqual(['ibdiagnet2.net_dump', 'ibdiagnet2.cables']);
    expect(s.meta.filesSkipped).toBe('ibdiagnet2.net_dump,ibdiagnet2.cables');
    expect(s.ports).toEqual([]);
    expect(s.cables).toEqual([]);
    expect(s.sms.map((x) => [x.state, x.guid, x.lid])).toEqual([
      ['MASTER', '0xb0cf0e0300d33fc0', 180],
      ['STANDBY', '0x5c25730300e6706e', 181],
    ]);
  });

  it('throws in strict mode on a file of another run, naming it', async () => {
    const e = parseError(() => readRunDir(resolve(fixturesDir, 'two-runs'), { strict: true }));
    expect(e.file).toBe('ibdiagnet2.net_dump');
    expect(e.message).toBe(
      'ibdiagnet2:ibdiagnet2.net_dump: ibdiagnet2.net_dump is from another ' +
        'ibdiagnet run (2025-03-15 06:54:44 UTC +0000) than ibdiagnet2.db_csv ' +
        '(2025-03-31 23:43:18 UTC +0000): "Running timestamp : 2025-03-15 06:54:44 UTC +0000"',
    );
  });

  it('throws for a directory without ibdiagnet files and for a truncated db_csv', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ibd-empty-'));
    expect(parseError(() => readRunDir(empty)).reason).toBe('no ibdiagnet2.* files in directory');
    const cut = mkdtempSync(join(tmpdir(), 'ibd-cut-'));
    writeFileSync(join(cut, 'ibdiagnet2.db_csv'), fixture('truncated-file.bad.db_csv'));
    const e = parseError(() => readRunDir(cut));
    expect([e.line, e.file]).toEqual([23, join(cut, 'ibdiagnet2.db_csv')]);
  });

  it('skips a broken secondary file with a warning unless strict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibd-broken-'));
    writeFileSync(join(dir, 'ibdiagnet2.db_csv'), fixture('minimal.good.db_csv'));
    writeFileSync(join(dir, 'ibdiagnet2.log'), fixture('garbage.bad.log'));
    const r = readRunDir(dir);
    expect(r.value.nodes).toHaveLength(2);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'ibdiagnet2.log has no "Running timestamp" header; used without checking it belongs to the run',
      expect.stringMatching(/^file skipped: ibdiagnet2.log:.*not an ibdiagnet2.log/),
    ]);
    expect(() => readRunDir(dir, { strict: true })).toThrow(/not an ibdiagnet2.log/);
  });
});

describe('parseIbdiagnetFiles()', () => {
  it('lists each link once, whichever end a LINKS row names first, and keeps two links of one port', () => {
    const hca = '0x5c25730300e6706e';
    const sw = '0xb0cf0e0300d33fc0';
    const rows = [`${sw},1,${hca},1`, `${hca},1,${sw},1`, `${sw},1,${hca},1`, `${hca},1,${sw},2`, `${sw},2,${hca},1`];
    const text = fixture('minimal.good.db_csv').replace(`${sw},1,${hca},1`, rows.join('\n'));
    const { value } = parseIbdiagnetFiles({ dbCsv: text });
    expect(value.links).toEqual([
      { a: { nodeGuid: hca, portNum: 1 }, b: { nodeGuid: sw, portNum: 1 } },
      { a: { nodeGuid: hca, portNum: 1 }, b: { nodeGuid: sw, portNum: 2 } },
    ]);
  });

  it('joins in-memory texts with the same run rules', () => {
    const r = parseIbdiagnetFiles({
      dbCsv: fixture('two-runs/ibdiagnet2.db_csv'),
      sm: fixture('two-runs/ibdiagnet2.sm'),
      cables: fixture('two-runs/ibdiagnet2.cables'),
      netDump: fixture('two-runs/ibdiagnet2.net_dump'),
    });
    expect(r.value.meta.filesSkipped).toBe('ibdiagnet2.net_dump,ibdiagnet2.cables');
    expect(r.value.sms.map((s) => s.state)).toEqual(['MASTER', 'STANDBY']);
    expect(
      parseError(() =>
        parseIbdiagnetFiles(
          { dbCsv: fixture('minimal.good.db_csv'), cables: fixture('two-runs/ibdiagnet2.cables') },
          { strict: true },
        ),
      ).file,
    ).toBe('ibdiagnet2.cables');
  });

  it('takes cables from the same run and maps them to the node', () => {
    const cables = fixture('two-runs/ibdiagnet2.cables').replace(/2025-03-15 06:54:44/g, '2025-03-31 23:43:18');
    const r = parseIbdiagnetFiles({ dbCsv: fixture('minimal.good.db_csv'), cables });
    expect(r.value.cables).toEqual([
      {
        nodeGuid: '0xb0cf0e0300d33fc0',
        portNum: 1,
        vendor: 'FS',
        partNumber: 'OSFP-SR8-800G',
        serialNumber: 'G2430283435',
        type: '850 nm VCSEL',
        temperatureC: 58,
      },
    ]);
  });

  it('falls back on .lst and .pm when db_csv is absent', () => {
    const r = parseIbdiagnetFiles({
      lst: real(runA, 'ibdiagnet2.lst'),
      pm: real(runA, 'ibdiagnet2.pm'),
      netDump: real(runA, 'ibdiagnet2.net_dump'),
    });
    expect([r.value.nodes.length, r.value.links.length, r.value.counters.rows]).toEqual([272, 271, 542]);
    expect(r.value.takenAt).toBe('2025-03-31T23:43:18Z');
  });
});

describe('streaming', () => {
  it('parses a CRLF db_csv from node:readline lines like the string API', async () => {
    const r = await parseDbCsvAsync(readFileLines(resolve(fixturesDir, 'crlf.good.db_csv')));
    expect(tableRow(r.value.pmInfo, 0).counters.PortXmitWaitExt).toBe(9463628588n);
    expect(r.value.nodes.map((n) => n.description)).toEqual([
      'MF0;ib-switch-sequoia:MQM9700/U1',
      'is-north-7-compute-1 mlx5_8',
    ]);
  });

  it('parses the real db_csv from readline exactly as from the whole text', async () => {
    const streamed = await parseDbCsvAsync(readFileLines(resolve(runA, 'ibdiagnet2.db_csv')));
    const { parseDbCsv } = await import('./db-csv.ts');
    expect(streamed).toEqual(parseDbCsv(real(runA, 'ibdiagnet2.db_csv')));
  });
});
