/**
 * Integration: the collector's real scan pipeline against a live 256-GPU, 3-tier lab (ibsim +
 * OpenSM master/standby + infiniband-diags). Each fault is injected through packages/lab, and
 * the findings, worklist, topology and SM views must name exactly the faulted port, link or SM
 * and nothing healthy. One lab for the whole file (the steps run in order on it); the last step
 * kills its ibsim and brings a second lab up in the same dir. Scans are triggered directly; only
 * the fabric's own reactions (OpenSM re-sweep, SM takeover, link retraining) are polled, bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  topologyObjects,
  type CounterHistoryReply,
  type FabricSummary,
  type FindingRow,
  type PortDetailReply,
  type SmReply,
  type TopologyReply,
  type WorklistEntry,
} from '@ibwatch/fabric';
import { addCounter, degradeLink, killMasterSm, linkDown, linkUp, resetCounters, restoreLink } from '@ibwatch/lab';
import { endsOf, entryEnds, startHarness, toolAttached, until, type Harness, type Port } from './lab-harness.ts';

const MAJOR_OR_WORSE = new Set(['major', 'critical']);
let h: Harness;

// The default clean period (60 min): within a test nothing resolves by itself, so what the
// views show after a repair is the latest observation, not the end of a lifecycle.
beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
}, 30_000);

async function scanOk(kind: 'topology' | 'pm' | 'sm') {
  const row = await h.scan(kind);
  expect(row.status, `${kind} scan: ${row.error ?? ''}`).not.toBe('failed');
  return row;
}

/** Asserts every active port/link finding is on the given ends, and returns them. */
async function onlyOn(ends: Port[]): Promise<FindingRow[]> {
  const keys = new Set(ends.map((e) => e.key));
  const found = await h.linkFindings();
  for (const f of found)
    expect(
      endsOf(f).every((e) => keys.has(e)),
      `${f.kind}: ${f.title}`,
    ).toBe(true);
  return found;
}

async function history(p: Port, counter: string) {
  const [guid, port] = p.key.split('/');
  const r = await h.get<CounterHistoryReply>(`/api/ports/${guid}/${port}/counters?range=1h`);
  return r.points.filter((x) => x.counter === counter);
}

async function nonOkLinks() {
  return topologyObjects(await h.get<TopologyReply>('/api/topology')).links.filter((l) => l.health !== 'ok');
}

describe('collector against a live 256-GPU lab', () => {
  it('reports a healthy lab as healthy: no major finding, an empty worklist, every link ok, one master', async () => {
    for (const kind of ['topology', 'pm', 'pm'] as const) await scanOk(kind);
    const active = await h.get<FindingRow[]>('/api/findings?state=active&limit=10000');
    expect(active.filter((f) => MAJOR_OR_WORSE.has(f.severity)).map((f) => f.title)).toEqual([]);
    expect(await h.linkFindings()).toEqual([]);
    expect(await h.get<WorklistEntry[]>('/api/worklist')).toEqual([]);
    const topo = topologyObjects(await h.get<TopologyReply>('/api/topology'));
    expect(topo.links).toHaveLength(h.lab.state.counts.links);
    expect(await nonOkLinks()).toEqual([]);
    await scanOk('sm');
    const sms = await h.get<SmReply>('/api/sms');
    const [a, b] = h.lab.state.sms;
    expect(sms.summary).toMatchObject({ status: 'ok', masterGuid: a!.portGuid, masterName: a!.host, masterCount: 1 });
    // The standby is not always listed: OpenSM 3.3.23 learns of another SM only in a heavy sweep,
    // and the standby sets IsSM after the master's first one (the master logs only "Received
    // Generic Notice type:4 num:144 ... from LID:7"), so on a quiet fabric `saquery SMIR` may keep
    // listing the master alone. When it is listed, it is not a master.
    expect(sms.sms.map((s) => s.guid).every((g) => g === a!.portGuid || g === b!.portGuid)).toBe(true);
    expect(sms.sms.filter((s) => s.state === 'MASTER').map((s) => s.guid)).toEqual([a!.portGuid]);
    const smFindings = (await h.get<FindingRow[]>('/api/findings?state=active')).filter((f) => f.subjectType === 'sm');
    expect(smFindings).toEqual([]);
  }, 60_000);

  const leaf = () => h.port('leaf-r0-01', 1);

  it('names both ends of the one link with a symbol-error burst, keeps the delta, and clears it at the first ' +
    'clean sweep', async () => {
    const sw = leaf();
    const hca = h.peer(sw);
    expect(h.node(hca.node).type).toBe('ca');
    await addCounter(h.lab, sw, 'SymbolErrorCounter', 500);
    const burst = await scanOk('pm');
    expect(burst.summary).toMatchObject({ portsWithErrors: 1, deltasStored: 1 });

    const work = await h.get<WorklistEntry[]>('/api/worklist');
    expect(work).toHaveLength(1);
    expect(entryEnds(work[0]!).sort()).toEqual([sw.key, hca.key].sort());
    expect([work[0]!.a.name, work[0]!.b?.name].sort()).toEqual([sw.node, hca.node].sort());
    expect(work[0]!.reasons.join(' ')).toMatch(/symbol errors .*BER/i);
    expect(MAJOR_OR_WORSE.has(work[0]!.severity)).toBe(true);

    const found = await onlyOn([sw]);
    expect(found.map((f) => [f.kind, f.subjectKey])).toEqual([['symbol-errors', `port:${sw.key}`]]);
    expect(await history(sw, 'SymbolErrorCounter')).toEqual([expect.objectContaining({ delta: 500 })]);
    expect(await history(hca, 'SymbolErrorCounter')).toEqual([]);
    expect((await nonOkLinks()).map((l) => [l.health, [l.a.name, l.b.name].sort()])).toEqual([
      ['errors', [sw.node, hca.node].sort()],
    ]);

    // No new errors: rate 0, no new point. The latest sweep saw a clean port: the link is ok in
    // every view at once, and the finding is cleared (still open until its clean period passes).
    const quiet = await scanOk('pm');
    expect(quiet.summary).toMatchObject({
      portsWithErrors: 0,
      deltasStored: 0,
      findingsCleared: 1,
      findingsResolved: 0,
    });
    expect(await history(sw, 'SymbolErrorCounter')).toHaveLength(1);
    expect(await h.linkFindings()).toEqual([]);
    expect(await nonOkLinks()).toEqual([]);
    const cleared = await h.get<FindingRow[]>('/api/findings?state=cleared&kind=symbol-errors');
    expect(cleared.map((f) => [f.subjectKey, f.state, f.clearedAt])).toEqual([
      [`port:${sw.key}`, 'open', expect.any(Number)],
    ]);
    const after = await h.get<WorklistEntry[]>('/api/worklist');
    expect(after.map((e) => [e.state, e.clearedAt !== null, entryEnds(e).sort()])).toEqual([
      ['open', true, [sw.key, hca.key].sort()],
    ]);
    expect(await h.openWorklist()).toEqual([]);
    const summary = await h.get<FabricSummary>('/api/summary');
    expect(summary.brokenNow.filter((r) => r.kind === 'cable')).toEqual([]);
    expect(summary.recentlyFixed.map((r) => r.key)).toEqual([after[0]!.linkKey]);
  }, 60_000);

  it('takes a counter reset between sweeps (500 -> 0) as a reset: no negative delta, no spike, no ' +
    'finding', async () => {
    const sw = leaf();
    await resetCounters(h.lab, sw);
    const row = await scanOk('pm');
    expect(row.summary).toMatchObject({ portsWithErrors: 0, deltasStored: 0, findingsOpened: 0 });
    expect((await history(sw, 'SymbolErrorCounter')).map((p) => p.delta)).toEqual([500]);
    const negative = h.ctx.db.prepare('SELECT COUNT(*) FROM counter_deltas WHERE delta <= 0').pluck().get();
    expect(negative).toBe(0);
    expect(await h.linkFindings()).toEqual([]);
  }, 30_000);

  it('reports a leaf-spine link trained at 2X as link-degraded-width on both ends, and shows it ok at the ' +
    'first scan after the repair', async () => {
    // Width faults on HCA links do not hold under ibsim (packages/lab README); leaf-spine ones do.
    const sw = h.port('leaf-r2-01', 40);
    const up = h.peer(sw);
    expect(h.node(up.node).role).toBe('spine');
    await degradeLink(h.lab, sw, { width: '2X' });
    // OpenSM re-sweeps every 2 s; the topology scan shows the width once both ends retrained.
    const f = await until(
      'link-degraded-width',
      async () => {
        await scanOk('topology');
        return (await h.linkFindings()).find((x) => x.kind === 'link-degraded-width');
      },
      20_000,
    );
    expect(endsOf(f).sort()).toEqual([sw.key, up.key].sort());
    expect(f.title).toContain(`${sw.node} port ${sw.port}`);
    expect(f.title).toContain(`${up.node} port ${up.port}`);
    expect(f.title).toMatch(/2X instead of 4X/);
    expect((await onlyOn([sw, up])).map((x) => x.kind)).toEqual(['link-degraded-width']);
    const bad = await nonOkLinks();
    expect(bad.map((l) => [l.health, l.widthActive, [l.a.name, l.b.name].sort()])).toEqual([
      ['degraded', '2X', [sw.node, up.node].sort()],
    ]);
    const work = await h.openWorklist();
    expect(work.map((e) => entryEnds(e).sort())).toEqual([[sw.key, up.key].sort()]);

    await restoreLink(h.lab, sw);
    // OpenSM retrains both ends; the first topology scan that sees 4X again must show the link
    // ok everywhere, with no further scan.
    const [guid, port] = sw.key.split('/');
    await until(
      'the topology scan to see the link at 4X again',
      async () => {
        await scanOk('topology');
        const r = await h.get<PortDetailReply>(`/api/ports/${guid}/${port}`);
        return r.port.widthActive === '4X' ? r : undefined;
      },
      20_000,
    ).then((r) => expect(r).toMatchObject({ health: 'ok', healthReason: null }));
    expect(await h.linkFindings()).toEqual([]);
    expect(await nonOkLinks()).toEqual([]);
    expect(await h.openWorklist()).toEqual([]);
    const summary = await h.get<FabricSummary>('/api/summary');
    expect(summary.degradedLinks).toBe(0);
    expect(summary.brokenNow.filter((r) => r.kind === 'cable')).toEqual([]);
  }, 60_000);

  // Before the link flap below: restarting the priority-15 SM after an Unlink/ReLink hangs in
  // ibsim (packages/lab README), and this step leaves the standby as master.
  it('sees the standby take over when the master SM is killed: one failover row, the dead master missed', async () => {
    const before = await h.get<SmReply>('/api/sms');
    const killedAt = Date.now();
    const { killed, master, takeover } = await killMasterSm(h.lab, { wait: false });
    expect(killed.portGuid).toBe(before.summary.masterGuid);
    // The takeover needs sminfo_polling_timeout x polling_retry_number (~4 s); the scans in
    // between see no master (saquery SMIR: "Query SA failed: Connection timed out").
    try {
      await until(
        'the standby to be MASTER',
        async () => {
          const row = await scanOk('sm');
          return row.summary.master === master.portGuid ? true : undefined;
        },
        30_000,
      );
    } finally {
      // Even when the wait fails: the lab's recovery may restart an SM, which must not outlive
      // the teardown's stopLab as a stray opensm.
      await takeover.catch(() => undefined);
    }
    // Done, or recovered from a stalled sweep by the lab, before the fabric is judged.
    await takeover;

    const sms = await h.get<SmReply>('/api/sms');
    // The old master is dead and nobody is left in STANDBY: not ok, whatever the sweep count.
    expect(sms.summary).toMatchObject({
      status: 'no-standby',
      masterGuid: master.portGuid,
      masterCount: 1,
      failoversLast24h: 1,
      missingCount: 1,
    });
    expect(sms.sms.find((s) => s.guid === killed.portGuid)).toMatchObject({ answering: false, state: 'MASTER' });
    expect(sms.summary.masterName).toBe(master.host);
    const failovers = sms.events.filter((e) => e.kind === 'failover');
    expect(failovers.map((e) => [e.fromGuid, e.toGuid])).toEqual([[killed.portGuid, master.portGuid]]);
    expect(failovers[0]!.detail).toBe('master moved from head-01 to head-02; head-01 stopped answering');
    // The takeover's "no master", "not seen" and state-change rows are folded into the failover.
    expect(sms.events.filter((e) => e.at >= killedAt).map((e) => e.kind)).toEqual(['failover']);
    const smFindings = (await h.get<FindingRow[]>('/api/findings?state=active')).filter((f) => f.subjectType === 'sm');
    expect(smFindings.find((f) => f.kind === 'sm-failover')?.subjectKey).toBe(`sm:${master.portGuid}`);
    // The dead master is the only SM reported lost; no port or link is blamed.
    expect(smFindings.filter((f) => f.kind === 'sm-not-seen').map((f) => f.subjectKey)).toEqual([
      `sm:${killed.portGuid}`,
    ]);
    expect(await h.linkFindings()).toEqual([]);

    // With one master again, a "no master" seen during the takeover is no longer current.
    await scanOk('sm');
    const still = await h.get<FindingRow[]>('/api/findings?state=current&kind=sm-no-master');
    expect(still).toEqual([]);
    // ...while the dead master, still dead, stays reported (auto-resolve is 2 sweeps here).
    const missed = await h.get<FindingRow[]>('/api/findings?state=active&kind=sm-not-seen');
    expect(missed.map((f) => f.subjectKey)).toEqual([`sm:${killed.portGuid}`]);
  }, 60_000);

  it('reports an HCA link taken down (with a flap) as link-down on that link only, and sees it come back ' +
    'Active', async () => {
    const sw = h.port('leaf-r3-01', 5);
    const hca = h.peer(sw);
    await linkDown(h.lab, sw, { countFlap: true });
    // Unlink: OpenSM gets trap 128 and re-routes at once (docs/lab.md), iblinkinfo shows Down/Polling.
    await scanOk('topology');
    await scanOk('pm');

    const found = await onlyOn([sw, hca]);
    const down = found.find((f) => f.kind === 'link-down');
    expect(down && endsOf(down).sort()).toEqual([sw.key, hca.key].sort());
    expect(down?.title).toContain(`${sw.node} port ${sw.port}`);
    expect(down?.title).toContain(`${hca.node} port ${hca.port}`);
    expect(found.filter((f) => f.kind === 'link-flapping').map((f) => endsOf(f).sort())).toEqual([
      [sw.key, hca.key].sort(),
    ]);
    expect(found.some((f) => f.kind === 'link-downed' && f.subjectKey === `port:${sw.key}`)).toBe(true);
    const bad = await nonOkLinks();
    expect(bad.map((l) => [l.health, [l.a.name, l.b.name].sort()])).toEqual([['down', [sw.node, hca.node].sort()]]);
    const work = await h.openWorklist();
    expect(work).toHaveLength(1);
    expect(entryEnds(work[0]!).sort()).toEqual([sw.key, hca.key].sort());
    expect(work[0]!.reasons.join(' ')).toMatch(/link down/);

    await linkUp(h.lab, sw);
    const [guid, port] = sw.key.split('/');
    // The scan that sees both ends Active again no longer shows the link down.
    await until(
      'the link to be Active again',
      async () => {
        await scanOk('topology');
        const r = await h.get<{ port: { state: string | null } }>(`/api/ports/${guid}/${port}`);
        const down = (await h.linkFindings()).some((f) => f.kind === 'link-down');
        return r.port.state === 'Active' && !down ? true : undefined;
      },
      15_000,
    );
    const left = await onlyOn([sw, hca]);
    expect(left.map((f) => f.kind)).not.toContain('link-down');
    // The flap count is an event: it holds for its window (24 h), so the link stays "errors" and
    // the finding current through sweeps that see no new flap, until someone marks it fixed.
    expect(left.map((f) => f.kind)).toContain('link-flapping');
    expect((await nonOkLinks()).map((l) => l.health)).toEqual(['errors']);
    // While its link was down the HCA end was out of ibqueryerrors' reach: the first sweep after
    // it is back reads its LinkDownedCounter +1; the sweep after sees no new flap.
    expect((await scanOk('pm')).summary).toMatchObject({ portsWithErrors: 1 });
    expect((await scanOk('pm')).summary).toMatchObject({ portsWithErrors: 0 });
    const held = await onlyOn([sw, hca]);
    expect(held.map((f) => f.kind)).toEqual(['link-flapping']);
    expect((await nonOkLinks()).map((l) => l.health)).toEqual(['errors']);
    // Marked fixed (the reseat): gone from every view at once, the link ok.
    for (const f of held) {
      const r = await h.app.inject({
        method: 'POST',
        url: `/api/findings/${f.id}/resolve`,
        headers: { authorization: 'Bearer integration-test-token-0123456789' },
        payload: { note: 'reseated' },
      });
      expect(r.statusCode).toBe(200);
    }
    expect(await onlyOn([sw, hca])).toEqual([]);
    expect(await nonOkLinks()).toEqual([]);
    const flaps = await h.get<FindingRow[]>('/api/findings?state=resolved&kind=link-flapping');
    expect(flaps.map((f) => endsOf(f).sort())).toEqual([[sw.key, hca.key].sort()]);
  }, 60_000);

  it('fails a PM sweep whose ibsim dies mid-run with a clear error, keeps earlier data, and scans a new ' +
    'lab', async () => {
    const tables = ['nodes', 'ports', 'links', 'counter_last', 'counter_deltas', 'findings', 'sm_observations'];
    const count = () =>
      Object.fromEntries(tables.map((t) => [t, h.ctx.db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get()]));
    const before = count();
    const findingsBefore = await h.get<FindingRow[]>('/api/findings?limit=10000');

    const sweep = h.scan('pm');
    await toolAttached(h.lab);
    process.kill(h.lab.state.ibsim.pid, 'SIGKILL');
    const failed = await sweep;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/ibsim \(pid \d+\) is not running/);
    expect(count()).toEqual(before);
    expect(await h.get<FindingRow[]>('/api/findings?limit=10000')).toEqual(findingsBefore);

    // The next scan does not wait for a tool timeout against the dead simulator.
    const t0 = Date.now();
    const again = await h.scan('topology');
    expect(again).toMatchObject({ status: 'failed', error: expect.stringMatching(/is not running/) });
    expect(Date.now() - t0).toBeLessThan(2000);

    await h.restartLab();
    expect((await scanOk('topology')).summary).toMatchObject({
      nodes: h.lab.state.counts.switches + h.lab.state.counts.cas,
    });
    // The new lab's counters start at 0 again: a reset against the old baseline, not new errors.
    // A loaded machine can leave some PMA queries of the fresh lab unanswered: 'partial', not failed.
    const pm = await scanOk('pm');
    expect(pm.summary, JSON.stringify(pm)).toMatchObject({ portsWithErrors: 0, deltasStored: 0, unknownPorts: 0 });
    expect((await scanOk('sm')).summary).toMatchObject({ status: 'ok' });
  }, 60_000);
});
