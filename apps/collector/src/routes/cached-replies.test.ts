import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  isNoRateKind,
  tableToPortCounters,
  topologyObjects,
  type FabricSummary,
  type FindingRow,
  type TopologyReply,
  type WorklistEntry,
} from '@ibwatch/fabric';
import { readIbdiagnetDir } from '../input/ibdiagnet-dir.ts';
import { PM_KINDS } from '../queries/finding-kinds.ts';
import { auth, ERROR_PORT, pmSweep, SAMPLE_A, withErrors, useSeededApp } from '../test-support.ts';

// Read endpoints answer from serialised replies kept until the database changes
// (routes/reply-cache.ts): each must show a write on the very next request.
const fx = useSeededApp();
const get = async <T>(url: string) => (await fx.app.inject(url)).json<T>();

describe('cached replies', () => {
  it(
    'a PM sweep that opens a finding shows in /api/summary, /api/findings, /api/worklist and /api/topology at ' +
      'once',
    async () => {
      const topo = topologyObjects(await get<TopologyReply>('/api/topology'));
      // A cabled port with no finding yet: the far end of a healthy link of the error port's switch.
      const link = topo.links.find(
        (l) => l.health === 'ok' && l.a.guid === ERROR_PORT.nodeGuid && l.a.port !== ERROR_PORT.portNum,
      )!;
      const port = { nodeGuid: link.a.guid, portNum: link.a.port };
      const before = {
        summary: await get<FabricSummary>('/api/summary'),
        findings: await get<FindingRow[]>('/api/findings?state=open'),
        worklist: await get<WorklistEntry[]>('/api/worklist'),
      };
      expect(await get<FindingRow[]>('/api/findings?state=open')).toEqual(before.findings); // served from the cache

      // The seed's last sweep was at about now; the counters repeat its values, plus new symbol errors.
      const seeded = tableToPortCounters((await readIbdiagnetDir(SAMPLE_A)).value.counters);
      let counters = withErrors(seeded, ERROR_PORT, 'SymbolErrorCounter', 500n);
      counters = withErrors(counters, ERROR_PORT, 'LinkErrorRecoveryCounter', 50n);
      counters = withErrors(counters, { nodeGuid: '0xb0cf0e0300d33fc0', portNum: 5 }, 'LinkDownedCounter', 3n);
      counters = withErrors(counters, port, 'SymbolErrorCounter', 5000n);
      expect((await pmSweep(fx.ctx, Date.now() + 60_000, counters)).status).toBe('ok');

      const findings = await get<FindingRow[]>('/api/findings?state=open');
      const opened = findings.filter((f) => !before.findings.some((b) => b.id === f.id));
      expect(opened.map((f) => f.subjectKey)).toContain(`port:${port.nodeGuid}/${port.portNum}`);
      const summary = await get<FabricSummary>('/api/summary');
      // Ports and links over a threshold as the new sweep observed them: the same count
      // /api/findings gives for the findings current now (PM kinds, info left out).
      const current = (await get<FindingRow[]>('/api/findings?state=current&limit=10000')).filter(
        (f) =>
          ['port', 'link'].includes(f.subjectType) &&
          f.severity !== 'info' &&
          PM_KINDS(f.kind) &&
          !isNoRateKind(f.kind),
      );
      expect(current.map((f) => f.subjectKey)).toContain(`port:${port.nodeGuid}/${port.portNum}`);
      expect(summary.portsOverThreshold).toBe(new Set(current.map((f) => f.subjectKey)).size);
      expect(
        summary.brokenNow.some((r) => r.ends.some((e) => e.guid === port.nodeGuid && e.port === port.portNum)),
      ).toBe(true);
      expect(
        before.summary.brokenNow.some((r) => r.ends.some((e) => e.guid === port.nodeGuid && e.port === port.portNum)),
      ).toBe(false);
      expect(summary.lastScans.find((s) => s.kind === 'pm')!.id).toBeGreaterThan(
        before.summary.lastScans.find((s) => s.kind === 'pm')!.id,
      );
      const worklist = await get<WorklistEntry[]>('/api/worklist');
      expect(worklist.length).toBe(before.worklist.length + 1);
      const after = topologyObjects(await get<TopologyReply>('/api/topology')).links.find((l) => l.id === link.id)!;
      expect(after.health).toBe('errors');
    },
  );

  it('an acknowledgement shows in /api/findings and /api/worklist, each filter its own entry', async () => {
    const entry = (await get<WorklistEntry[]>('/api/worklist?state=open'))[0]!;
    const openBefore = (await get<FindingRow[]>('/api/findings?state=open')).length;
    expect((await get<WorklistEntry[]>('/api/worklist?state=acknowledged')).map((e) => e.linkKey)).not.toContain(
      entry.linkKey,
    );
    for (const id of entry.findingIds) {
      expect(
        (
          await fx.app.inject({
            method: 'POST',
            url: `/api/findings/${id}/ack`,
            payload: { note: 'on it' },
            headers: auth,
          })
        ).statusCode,
      ).toBe(200);
    }
    expect((await get<FindingRow[]>('/api/findings?state=open')).length).toBe(openBefore - entry.findingIds.length);
    expect((await get<FindingRow[]>('/api/findings?state=acknowledged')).map((x) => x.id)).toEqual(
      expect.arrayContaining(entry.findingIds),
    );
    expect((await get<WorklistEntry[]>('/api/worklist?state=acknowledged')).map((e) => e.linkKey)).toContain(
      entry.linkKey,
    );
    expect((await get<WorklistEntry[]>('/api/worklist?state=open')).map((e) => e.linkKey)).not.toContain(entry.linkKey);
  });

  it('sends the topology gzipped to clients that accept it, the same JSON either way', async () => {
    const plain = await fx.app.inject('/api/topology');
    const gz = await fx.app.inject({ url: '/api/topology', headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(gz.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.json<TopologyReply>().nodes.guid.length).toBeGreaterThan(0);
  });

  it('revalidates the topology with a strong ETag per encoding: 304 until a link changes', async () => {
    const plain = await fx.app.inject('/api/topology');
    const gz = await fx.app.inject({ url: '/api/topology', headers: { 'accept-encoding': 'gzip' } });
    const tag = plain.headers.etag as string;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(gz.headers.etag).toMatch(/^"[^"]+"$/);
    expect(gz.headers.etag).not.toBe(tag);
    expect(plain.headers['cache-control']).toBe('no-cache');
    for (const [inm, enc] of [
      [tag, 'identity'],
      [gz.headers.etag as string, 'gzip'],
    ]) {
      const again = await fx.app.inject({
        url: '/api/topology',
        headers: { 'if-none-match': inm, 'accept-encoding': enc },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    const link = plain.json<TopologyReply>().links.id[0];
    const was = fx.ctx.db.prepare('SELECT health, reason FROM links WHERE id = ?').get(link) as {
      health: string;
      reason: string | null;
    };
    fx.ctx.db.prepare("UPDATE links SET health = 'errors', reason = 'etag test' WHERE id = ?").run(link);
    const changed = await fx.app.inject({ url: '/api/topology', headers: { 'if-none-match': tag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect(changed.json<TopologyReply>().problems).toContainEqual([0, 'errors', 'etag test']);
    const changedGz = await fx.app.inject({ url: '/api/topology', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(changedGz.rawPayload).toString()).toBe(changed.body);
    fx.ctx.db.prepare('UPDATE links SET health = ?, reason = ? WHERE id = ?').run(was.health, was.reason, link);
  });
});
