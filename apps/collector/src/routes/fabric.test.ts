import { describe, expect, it } from 'vitest';
import {
  isNoRateKind,
  topologyObjects,
  type FabricSummary,
  type SmReply,
  type TopologyReply,
  type WorklistEntry,
} from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { PM_KINDS } from '../queries/finding-kinds.ts';
import { ERROR_PORT, useSeededApp } from '../test-support.ts';

const fx = useSeededApp();

describe('GET /api/health', () => {
  it('answers ok with version and source', async () => {
    const r = await fx.app.inject('/api/health');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      status: 'ok',
      version: '0.1.0',
      source: 'import-only',
      uptimeS: expect.any(Number),
    });
  });

  it('GET /api/ready is ready once a scan completed', async () => {
    expect((await fx.app.inject('/api/ready')).json()).toEqual({ ready: true });
  });
});

describe('GET /api/summary', () => {
  it('counts the fabric, the SM and the findings', async () => {
    const r = await fx.app.inject('/api/summary');
    expect(r.statusCode).toBe(200);
    const s = r.json<FabricSummary>();
    expect(s).toMatchObject({
      expectedRate: { width: '4X', speed: 'NDR' },
      switches: 9,
      hcas: 256,
      aggregationNodes: 7,
      links: 271,
      downLinks: 0,
      sm: {
        // The sample run lists one SM: the fabric has no standby.
        status: 'no-standby',
        masterGuid: '0xb0cf0e0300d33fc0',
        masterName: 'MF0;ib-switch-sequoia:MQM9700/U1',
        masterCount: 1,
      },
    });
    expect(s.ports).toBeGreaterThan(s.activePorts);
    expect(s.lastScans.map((x) => x.kind).sort()).toEqual(['import-ibdiagnet', 'import-nccl', 'pm']);
    // Every kind completed once: each listed at its scan's start, which views read as "checked".
    expect(s.completedScans.map((x) => x.kind).sort()).toEqual(['import-ibdiagnet', 'import-nccl', 'pm']);
    for (const c of s.completedScans) expect(c.lastOkAt).toBe(s.lastScans.find((x) => x.kind === c.kind)!.startedAt);
    expect(s.ncclTrend).toHaveLength(2);
    expect(Object.keys(s.findingsBySeverity).sort()).toEqual(['critical', 'info', 'major', 'minor']);
  });

  it('counts each port or link with current PM findings once, flaps included', async () => {
    const s = (await fx.app.inject('/api/summary')).json<FabricSummary>();
    const open = createFindingsRepo(fx.ctx.db)
      .active()
      .filter((f) => f.clearedAt === null && f.severity !== 'info');
    // The seeded sweep: two PM findings on ERROR_PORT, link-downed on FLAP_PORT and link-flapping on its link.
    expect(
      open
        .filter((f) => f.subjectKey === `port:${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`)
        .map((f) => f.kind)
        .sort(),
    ).toEqual(['link-error-recovery', 'symbol-errors']);
    expect(open.some((f) => f.kind === 'link-flapping')).toBe(true);
    const subjects = new Set(
      open
        // Counts with no rate (a saturated counter) are counted apart, as portsErrorsSinceClear.
        .filter(
          (f) => (f.subjectType === 'port' || f.subjectType === 'link') && PM_KINDS(f.kind) && !isNoRateKind(f.kind),
        )
        .map((f) => f.subjectKey),
    );
    expect(s.portsOverThreshold).toBe(subjects.size);
    expect(s.portsOverThreshold).toBeLessThan(open.filter((f) => f.subjectType !== 'run').length);
  });
});

describe('GET /api/summary: what is broken now', () => {
  it('says DEGRADED with one row per cable the latest sweep saw errors on, linked to the worklist', async () => {
    const s = (await fx.app.inject('/api/summary')).json<FabricSummary>();
    // import-only: no scheduled scans, so no freshness rows and nothing can be stale.
    expect(s.freshness).toEqual([]);
    expect(s.fabricStatus.word).toBe('DEGRADED');
    const cables = s.brokenNow.filter((r) => r.kind === 'cable');
    // The sample run lists one SM, which is then the only designated one: no standby (minor).
    expect(s.fabricStatus.reasons).toEqual([
      `${cables.length} cables with a problem now`,
      '1 SM problem: no standby SM',
    ]);
    const onError = s.brokenNow.find((r) => r.ends.some((e) => e.guid === ERROR_PORT.nodeGuid && e.port === 3))!;
    expect(onError).toMatchObject({ kind: 'cable', severity: expect.stringMatching(/major|critical|minor/) });
    expect(onError.reasons.join(' ')).toMatch(/symbol errors/);
    expect(onError.ends).toHaveLength(2);
    expect(onError.title).toBe(onError.ends.map((e) => `${e.name} port ${e.port}`).join(' ↔ '));
    const worklist = (await fx.app.inject('/api/worklist')).json<WorklistEntry[]>();
    expect(worklist.map((e) => e.linkKey)).toContain(onError.worklistKey);
    expect(cables).toHaveLength(new Set(cables.map((r) => r.key)).size);
  });
});

describe('GET /api/topology', () => {
  it('lists every node with its tier and every present link', async () => {
    const r = (await fx.app.inject('/api/topology')).json<TopologyReply>();
    expect(r.format).toBe(2);
    const t = topologyObjects(r);
    expect(t.nodes).toHaveLength(272);
    expect(t.links).toHaveLength(271);
    expect(t.nodes.filter((n) => n.tier === 'spine')).toHaveLength(1);
    const hca = t.nodes.find((n) => n.type === 'ca' && n.host);
    expect(hca).toBeDefined();
    expect(t.links.some((l) => l.health === 'errors' && [l.a.guid, l.b.guid].includes('0xb0cf0e0300d33fc0'))).toBe(
      true,
    );
  });
});

describe('GET /api/sms', () => {
  it('returns the summary, the SMs and the events', async () => {
    const r = (await fx.app.inject('/api/sms?events=5')).json<SmReply>();
    expect(r.summary.status).toBe('no-standby');
    expect(r.sms).toEqual([
      expect.objectContaining({ guid: '0xb0cf0e0300d33fc0', state: 'MASTER', priority: 12, answering: true }),
    ]);
    expect(r.designation).toMatchObject({ source: 'learned', guids: ['0xb0cf0e0300d33fc0'] });
    expect(Array.isArray(r.events)).toBe(true);
  });

  it('refuses an out-of-range events count with 400', async () => {
    expect((await fx.app.inject('/api/sms?events=0')).statusCode).toBe(400);
  });
});

describe('GET /api/peers', () => {
  it('returns no peers when none are configured', async () => {
    expect((await fx.app.inject('/api/peers')).json()).toEqual({ self: { source: 'import-only' }, peers: [] });
  });
});
