import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIbnetdiscover } from '@ibwatch/parsers';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { REPO_ROOT, testContext } from '../test-support.ts';
import { runPipeline } from './pipeline.ts';
import { storeTopology } from './topology-store.ts';

const DIAGS = join(REPO_ROOT, 'packages/parsers/fixtures/diags');
const ctx = testContext({ IBWATCH_EXPECTED_RATE: '4X HDR' });
const one = (sql: string, ...p: unknown[]) =>
  ctx.db
    .prepare(sql)
    .pluck()
    .get(...p) as number;
/** Ports whose counters the scan stored (counter_last rows written by it). */
const storedBy = (scanId: number) => one('SELECT COUNT(*) FROM counter_last WHERE scan_id = ?', scanId);
const paste = (name: string, text: string) => {
  const f = join(ctx.dir, name);
  writeFileSync(f, text);
  return f;
};
const fixture = (name: string) => {
  const f = join(ctx.dir, name);
  copyFileSync(join(DIAGS, name), f);
  return f;
};
const hcaFindings = () =>
  createFindingsRepo(ctx.db)
    .list({ state: 'current', limit: 100 })
    .filter((f) => f.kind.startsWith('hca-port-'))
    .map((f) => `${f.kind}:${f.title}`);

beforeAll(async () => {
  // The lab fabric the diags fixtures were captured on, as a topology scan stores it.
  const topo = parseIbnetdiscover(readFileSync(join(DIAGS, 'lab-ibnetdiscover.txt'), 'utf8')).value;
  const row = await runPipeline(
    ctx.db,
    'topology',
    'cli',
    async () => ({ data: topo, raw: [], toolVersions: {}, warnings: [] }),
    (id, at, c) => storeTopology(ctx.db, ctx.config, ctx.names, id, at, c.data),
  );
  expect(row.status).toBe('ok');
});
afterAll(() => ctx.cleanup());

describe('ibwatch import diags', () => {
  it('ibqueryerrors: the counters go through the PM path, one scan row with kind and file', async () => {
    const row = await ctx.scans.importDiags(fixture('lab-ibqueryerrors-data.txt'), undefined, 'cli');
    expect(row).toMatchObject({ kind: 'import-diags', trigger: 'cli', status: 'ok' });
    expect(row.summary).toMatchObject({ file: 'lab-ibqueryerrors-data.txt', format: 'ibqueryerrors', unresolved: 0 });
    expect(row.summary.ports).toBeGreaterThan(0);
    expect(storedBy(row.id)).toBe(row.summary.ports);
  });

  it('perfquery: ports named by LID are placed through the topology and stored', async () => {
    const row = await ctx.scans.importDiags(fixture('lab-perfquery-x.txt'), undefined, 'cli');
    expect(row).toMatchObject({
      kind: 'import-diags',
      status: 'ok',
      summary: { format: 'perfquery', unplacedLids: '' },
    });
    expect(storedBy(row.id)).toBe(1);
  });

  it('a headerless ibqueryerrors excerpt is read; port ALL is shown as the node sum, not stored', async () => {
    const text =
      '   GUID 0xfc6a1c0300001010 port ALL: [PortXmitDiscards == 55]\n' +
      '   GUID 0xfc6a1c0300001010 port 3: [PortXmitDiscards == 60]\n';
    const row = await ctx.scans.importDiags(paste('ticket.txt', text), undefined, 'cli');
    expect(row.status).toBe('partial'); // its warnings: no header, no footer
    expect(row.warnings[0]).toBe(
      'ticket.txt:1: no "Errors for" header: the node is known only by the GUID on its lines',
    );
    expect(row.summary).toMatchObject({
      format: 'ibqueryerrors',
      'aggregate.1': '0xfc6a1c0300001010 port ALL: PortXmitDiscards=55',
      ports: 1,
    });
    // Stored as the PM path stores a sweep: the port whose counter moved since the last paste.
    expect(storedBy(row.id)).toBe(1);
  });

  it('ibstatus: IB ports judged (Active, rate), RoCE ports listed and not judged', async () => {
    const row = await ctx.scans.importDiags(fixture('sample-ibstatus-roce-ib.txt'), undefined, 'cli');
    expect(row.summary).toMatchObject({ format: 'ibstatus', ports: 4, infiniband: 2, ethernet: 2, findings: 0 });
    expect(row.summary['port.3']).toBe('mlx5_2/1 Down/Disabled 100G Ethernet');
    expect(row.summary['port.2']).toBe('mlx5_1/1 Active/LinkUp 200G InfiniBand lid 9 sm 6');
    expect(hcaFindings()).toEqual([]);
  });

  it('ibstat: a port not Active/LinkUp or below the expected rate is a finding; a later paste clears it', async () => {
    const good = readFileSync(join(DIAGS, 'sample-ibstat-hdr.txt'), 'utf8');
    const bad = good
      .replace('State: Active', 'State: Down')
      .replace('Physical state: LinkUp', 'Physical state: Polling');
    await ctx.scans.importDiags(paste('node7.txt', bad), 'ibstat', 'cli');
    expect(hcaFindings()).toEqual([
      'hca-port-not-active:mlx5_5 port 1 is Down/Polling, not Active/LinkUp (from node7.txt)',
    ]);
    await ctx.scans.importDiags(paste('node7-edr.txt', good.replace('Rate: 200', 'Rate: 100')), undefined, 'cli');
    expect(hcaFindings()).toEqual([
      'hca-port-slow:mlx5_5 port 1 runs at 100 Gb/s, below the expected 200 Gb/s (4X HDR; from node7-edr.txt)',
    ]);
    const row = await ctx.scans.importDiags(paste('node7-fixed.txt', good), undefined, 'cli');
    expect(row.summary).toMatchObject({ format: 'ibstat', findings: 0 });
    expect(hcaFindings()).toEqual([]);
  });

  it('iblinkinfo: link-health observations of the pasted ports, as the topology scan judges them', async () => {
    const row = await ctx.scans.importDiags(fixture('lab-iblinkinfo.txt'), undefined, 'cli');
    expect(row).toMatchObject({
      status: 'ok',
      summary: { format: 'iblinkinfo', ports: 248, placed: 248, unplaced: 0 },
    });
    expect(row.summary.notActive).toBeGreaterThan(0);
    // The lab's faults as captured: dgx-0005's link at 2X and dgx-0012's at EDR, against 4X HDR.
    const degraded = createFindingsRepo(ctx.db)
      .list({ state: 'current', limit: 100 })
      .filter((f) => f.kind.startsWith('link-degraded'))
      .map((f) => f.title)
      .join('\n');
    expect(degraded).toMatch(/dgx-0005/);
    expect(degraded).toMatch(/dgx-0012/);
    expect(row.summary.findingsOpened).toBeGreaterThanOrEqual(2);
  });

  it('a truncated paste fails the scan naming file and line; what was stored before stays', async () => {
    const before = one('SELECT COUNT(*) FROM counter_last');
    const cut = readFileSync(join(DIAGS, 'sample-ibstat-hdr.txt'), 'utf8').split('\n').slice(0, 8).join('\n');
    const row = await ctx.scans.importDiags(paste('cut.txt', cut), undefined, 'cli');
    expect(row).toMatchObject({ kind: 'import-diags', status: 'failed' });
    expect(row.error).toMatch(/cut\.txt:8/);
    const garbage = await ctx.scans.importDiags(paste('notes.txt', 'reseated the cable, all good\n'), undefined, 'cli');
    expect(garbage.status).toBe('failed');
    expect(garbage.error).toMatch(/^notes\.txt: not an output of iblinkinfo, ibqueryerrors/);
    expect(one('SELECT COUNT(*) FROM counter_last')).toBe(before);
  });
});
