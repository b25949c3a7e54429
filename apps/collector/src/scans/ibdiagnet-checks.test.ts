import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { FindingRow, FirmwareReply } from '@ibwatch/fabric';
import { appOf, SAMPLE_A, SAMPLE_B, tempDir, testContext } from '../test-support.ts';
import { createFindingsRepo, toFindingRow } from '../db/findings-repo.ts';

const tmp = tempDir('ibwatch-checks-');
afterAll(tmp.cleanup);

/** The five leaves ibdiagnet's log names behind on firmware, plus the two only db_csv lists. */
const DRIFTED = [
  '0xfc6a1c030091cf00',
  '0xfc6a1c03008a4dc0',
  '0xfc6a1c03008a5c00',
  '0xfc6a1c030091cf40',
  '0xfc6a1c030091f9c0',
  '0xfc6a1c030091fc00',
  '0xfc6a1c030091f600',
].sort();

function active(ctx: ReturnType<typeof testContext>): FindingRow[] {
  return createFindingsRepo(ctx.db).list({ state: 'active', limit: 1000 }).map(toFindingRow);
}
const ofKind = (rows: FindingRow[], kind: string) => rows.filter((f) => f.kind === kind);
const guidsOf = (rows: FindingRow[]) => rows.map((f) => f.subjectKey.replace(/^node:/, '')).sort();

/**
 * A copy of run a taken a day later, edited as a later run would differ: `edit` gets each file's
 * text. Every file's timestamp moves with it, so the copy is one run (the .cables of an older run
 * stays older).
 */
function laterRunA(name: string, edit: (file: string, text: string) => string): string {
  const dir = join(tmp.dir, name);
  cpSync(SAMPLE_A, dir, { recursive: true });
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    const text = readFileSync(p, 'utf8').replaceAll('2025-03-31 23:43:18', '2025-04-01 23:43:18');
    writeFileSync(p, edit(f, text));
  }
  return dir;
}

/** Removes a db_csv section (START_ to END_) from `text`. */
const dropSection = (text: string, name: string) =>
  text.replace(new RegExp(`START_${name}\\n[\\s\\S]*?END_${name}\\n`), '');

describe('ibdiagnet checks of the real ndr-fat-tree-a run', () => {
  const ctx = testContext();
  let app: FastifyInstance | undefined;
  // Closing the app closes the database too: last.
  afterAll(async () => {
    await app?.close();
    ctx.cleanup();
  });

  it(
    'become findings: firmware drift and duplicated names minor, unanswered MADs and port hierarchy ' + 'info',
    async () => {
      const scan = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
      expect(scan.summary).toMatchObject({ toolFindings: 24, 'checks.findingsOpened': 24, 'checks.firmware': 272 });
      const rows = active(ctx);
      const drift = ofKind(rows, 'ibdiagnet-firmware-drift');
      expect(guidsOf(drift)).toEqual(DRIFTED);
      expect(drift.every((f) => f.severity === 'minor' && f.subjectType === 'fabric')).toBe(true);
      expect(drift.find((f) => f.subjectKey === 'node:0xfc6a1c030091cf00')?.title).toBe(
        'Firmware 31.2012.1024 on Quantum-2 Mellanox Technologies (0xfc6a1c030091cf00); the ' +
          "fabric's latest for MT_0000000579 is 31.2012.1068",
      );
      const dup = ofKind(rows, 'ibdiagnet-duplicate-node-description');
      expect(dup).toHaveLength(8);
      expect(dup[0]!.title).toMatch(
        /shares its node description "Quantum-2 Mellanox Technologies" with 7 other nodes$/,
      );
      expect(ofKind(rows, 'ibdiagnet-vs-capability-gmp').map((f) => f.severity)).toEqual(Array(7).fill('info'));
      expect(
        ofKind(rows, 'ibdiagnet-port-hierarchy')
          .map((f) => f.subjectKey)
          .sort(),
      ).toEqual(['port:0xb0cf0e0300d33fc0/65', 'port:0xfc6a1c030091cf00/65']);
      // Besides the checks: the run's SM_INFO lists one SM, so there is no standby (sm-store's),
      // and ibwatch's own judgement of the run's counters (ibdiagnet-first-snapshot.test.ts).
      expect(rows.filter((f) => f.kind.startsWith('ibdiagnet-'))).toHaveLength(24);
      expect(rows.filter((f) => f.subjectType === 'sm').map((f) => f.kind)).toEqual(['sm-no-standby']);
    },
  );

  it('leave the links uncoloured: a missing port label is not a link problem', () => {
    // Only ibwatch's own verdicts on the run's counters colour links (ibdiagnet-first-snapshot.test.ts).
    const reasons = ctx.db.prepare("SELECT reason FROM links WHERE health != 'ok'").pluck().all() as string[];
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons) expect(r).toMatch(/saturated: clear counters|since last clear/);
  });

  it('list the same stragglers in the firmware inventory as the drift findings', async () => {
    app = await appOf(ctx);
    const res = await app.inject({ method: 'GET', url: '/api/firmware' });
    expect(res.statusCode).toBe(200);
    const r = res.json() as FirmwareReply;
    expect(r).toMatchObject({ nodes: 272, unreported: 0, observedAt: Date.parse('2025-03-31T23:43:18Z') });
    const leaves = r.groups.find((g) => g.psid === 'MT_0000000579')!;
    expect(leaves).toMatchObject({ deviceId: 54002, device: 'Quantum-2', nodes: 8, latest: '31.2012.1068' });
    expect(leaves.versions).toEqual([
      { version: '31.2012.1068', nodes: 1 },
      { version: '31.2012.1024', nodes: 7 },
    ]);
    expect(leaves.stragglers.map((s) => s.guid).sort()).toEqual(DRIFTED);
    expect(leaves.tiers).toEqual([{ tier: 'leaf', nodes: 8 }]);
    const hcas = r.groups.filter((g) => g.device === 'ConnectX-7');
    expect(hcas.map((g) => [g.psid, g.nodes, g.stragglers.length])).toEqual([
      ['MT_0000001120', 255, 0],
      ['MT_0000000970', 1, 0],
    ]);
    // The Aggregation Nodes report no PSID: their versions are counted (the one beside the leaf
    // on 1068 runs 1068), but none is called behind.
    const ans = r.groups.find((g) => g.deviceId === 53001)!;
    expect([ans.psid, ans.nodes, ans.latest, ans.stragglers.length]).toEqual([null, 7, '31.2012.1068', 0]);
    expect(ans.versions).toEqual([
      { version: '31.2012.1068', nodes: 1 },
      { version: '31.2012.1024', nodes: 6 },
    ]);
    expect(ans.tiers).toEqual([{ tier: 'aggregation', nodes: 7 }]);
  });

  it('are left alone by an older run imported later (run b), which changes no PSID either', async () => {
    const before = active(ctx).map((f) => [f.id, f.lastSeen]);
    const b = await ctx.scans.importIbdiagnet(SAMPLE_B, 'cli');
    expect(b.summary).toMatchObject({ 'checks.olderRun': 1, 'checks.firmware': 0 });
    expect(active(ctx).map((f) => [f.id, f.lastSeen])).toEqual(before);
    expect(ctx.db.prepare('SELECT COUNT(*) FROM node_firmware WHERE psid IS NOT NULL').pluck().get()).toBe(265);
  });

  it('clear when a later run that ran the check no longer reports them', async () => {
    const upgraded = laterRunA('upgraded', (f, text) => {
      if (f === 'ibdiagnet2.db_csv') return dropSection(text, 'WARNINGS_FW_CHECK');
      if (f === 'ibdiagnet2.log')
        return text
          .replace('-W- FW Check finished with warnings', '-I- FW Check finished successfully')
          .replace(/^-W- S\w+\/N\w+ - Node with Devid:.*\n/gm, '');
      return text;
    });
    const scan = await ctx.scans.importIbdiagnet(upgraded, 'cli');
    expect(scan.summary).toMatchObject({
      'checks.findingsResolved': 7,
      'checks.findingsUpdated': 17,
      'checks.findingsOpened': 0,
    });
    const rows = active(ctx);
    expect(ofKind(rows, 'ibdiagnet-firmware-drift')).toEqual([]);
    expect(ofKind(rows, 'ibdiagnet-duplicate-node-description')).toHaveLength(8);
    const resolved = createFindingsRepo(ctx.db).list({
      state: 'resolved',
      kind: 'ibdiagnet-firmware-drift',
      limit: 10,
    });
    expect(resolved).toHaveLength(7);
  });

  it('stay open when a later run skipped their check', async () => {
    const skipped = laterRunA('skipped', (f, text) => {
      const t = text.replaceAll('2025-04-01 23:43:18', '2025-04-02 23:43:18');
      if (f === 'ibdiagnet2.db_csv') return dropSection(t, 'WARNINGS_DUPLICATED_NODE_DESCRIPTION_DETECTION');
      if (f === 'ibdiagnet2.log')
        return t
          .replace(
            '-W- Duplicated Node Description detection finished with warnings',
            '-W- Duplicated Node Description detection skipped',
          )
          .replace(/^-W- S\w+\/N\w+ - Node with GUID=.*\n/gm, '');
      return t;
    });
    const scan = await ctx.scans.importIbdiagnet(skipped, 'cli');
    expect(scan.summary).toMatchObject({ 'checks.findingsResolved': 0 });
    expect(ofKind(active(ctx), 'ibdiagnet-duplicate-node-description')).toHaveLength(8);
  });
});

describe('ibdiagnet checks of run b, then run a', () => {
  const ctx = testContext();
  afterAll(() => ctx.cleanup());

  it('open what each run found, and the PSIDs come with the run that read them', async () => {
    await ctx.scans.importIbdiagnet(SAMPLE_B, 'cli');
    let rows = active(ctx);
    // Run b skipped nodes_info and dup_node_desc: no drift, no duplicated names yet.
    expect(rows.map((f) => f.kind).sort()).toEqual([
      ...Array(2).fill('ibdiagnet-port-hierarchy'),
      ...Array(7).fill('ibdiagnet-vs-capability-gmp'),
      // The run lists one SM: no standby (sm-store's verdict, not a check).
      'sm-no-standby',
    ]);
    const psids = () => ctx.db.prepare('SELECT COUNT(psid) FROM node_firmware').pluck().get();
    expect(psids()).toBe(0);
    await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    rows = active(ctx).filter((f) => f.kind.startsWith('ibdiagnet-'));
    expect(rows).toHaveLength(24);
    expect(guidsOf(ofKind(rows, 'ibdiagnet-firmware-drift'))).toEqual(DRIFTED);
    expect(psids()).toBe(265);
  });
});
