// IBWATCH_OPENSM_LOG against the live lab: the collector follows the log of the SM host that
// takes over (the standby's osm.log, written by the real OpenSM 3.3.23), the master is killed,
// and the failover shows up timed by OpenSM's own stamps, to the second, between the kill and
// now; the heavy sweep after the takeover has its duration.
import type { SmLogReply } from '@ibwatch/fabric';
import { killMasterSm } from '@ibwatch/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createOpensmFollower, type OpensmFollower } from '../src/scans/opensm-follow.ts';
import { startHarness, until, type Harness } from './lab-harness.ts';

let h: Harness;
let follower: OpensmFollower;

beforeAll(async () => {
  h = await startHarness();
  const standby = h.lab.state.sms.find((s) => s.priority !== 15)!;
  // What server.ts does with IBWATCH_OPENSM_LOG, polled by hand here so the test decides when.
  const config = loadConfig({ IBWATCH_SOURCE: 'import-only', IBWATCH_OPENSM_LOG: standby.log });
  expect(config.opensmLog).toBe(standby.log);
  follower = createOpensmFollower(h.ctx.db, h.ctx.config, config.opensmLog!);
}, 60_000);

afterAll(async () => {
  follower?.stop();
  await h?.close();
}, 30_000);

const events = async () => (await h.get<SmLogReply>('/api/sms/log?limit=5000')).events;

describe('OpenSM log followed on the lab', () => {
  it('times the failover from the standby log: SMInfo timeouts, MASTER, SUBNET UP after the kill', async () => {
    await until(
      'the standby to log STANDBY',
      async () => {
        follower.poll();
        return (await events()).some((e) => e.state === 'STANDBY') ? true : undefined;
      },
      20_000,
    );
    expect(follower.status().error).toBeNull();

    // OpenSM stamps whole microseconds in local time; the kill is timed here to the ms.
    const killedAt = Math.floor(Date.now() / 1000) * 1000;
    await killMasterSm(h.lab);
    const master = await until(
      'MASTER in the standby log',
      async () => {
        follower.poll();
        return (await events()).find((e) => e.state === 'MASTER' && e.at !== null && e.at >= killedAt);
      },
      30_000,
    );
    const doneAt = Date.now();

    expect(master.time).toMatch(/^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{6}$/);
    expect(master.source).toBe(`follow:${follower.status().path}`);
    // Timed by the SM, not by a scan: after the kill and before we saw it, to the second.
    expect(master.at!).toBeGreaterThanOrEqual(killedAt);
    expect(master.at!).toBeLessThanOrEqual(doneAt);
    const all = await events();
    const after = all.filter((e) => e.at !== null && e.at >= killedAt);
    // The standby polled the dead master (ERR 3120) before taking over (polling_retry_number 2).
    const timeouts = after.filter((e) => e.kind === 'sminfo-timeout');
    expect(timeouts.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...timeouts.map((e) => e.at!))).toBeLessThanOrEqual(master.at!);
    const subnetUp = await until(
      'SUBNET UP after the takeover',
      async () => {
        follower.poll();
        return (await events()).find((e) => e.kind === 'subnet-up' && e.at! >= master.at!);
      },
      20_000,
    );
    expect(subnetUp.at! - master.at!).toBeLessThan(10_000);
    // The SM's own takeover time, from the kill to MASTER: seconds, not a scan interval.
    expect(master.at! - killedAt).toBeLessThan(30_000);

    // Polling again reads nothing new and stores nothing twice.
    const count = (await events()).length;
    follower.poll();
    expect((await events()).length).toBe(count);
  }, 90_000);
});
