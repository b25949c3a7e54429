import { afterAll, describe, expect, it } from 'vitest';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { ERROR_PORT, SAMPLE_A, testContext } from '../test-support.ts';
import { worklist } from './worklist.ts';

const DAY = 86_400_000;
const ctx = testContext();
afterAll(() => ctx.cleanup());

/** A symbol-errors finding on ERROR_PORT opened at `at`. */
function openSymbolErrors(at: number): number {
  return createFindingsRepo(ctx.db).open(
    {
      kind: 'symbol-errors',
      severity: 'major',
      subjectType: 'port',
      subjectKey: `port:${ERROR_PORT.nodeGuid}/${ERROR_PORT.portNum}`,
      subject: { kind: 'port', port: ERROR_PORT },
      title: 'Symbol errors',
      short: 'symbol errors 1e-11 BER',
      evidence: {},
    },
    at,
  );
}

const onPort = () =>
  worklist(ctx.db, ctx.names, {}).filter(
    (e) => e.state !== 'resolved' && [e.a, e.b].some((x) => x?.guid === ERROR_PORT.nodeGuid && x.port === 3),
  );

describe('a cable erring again after a fix', () => {
  it('climbs the action ladder one step per fix that did not hold, with the history in the reasons', async () => {
    const a = await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli');
    expect(a.status).not.toBe('failed');
    const repo = createFindingsRepo(ctx.db);
    const now = Date.now();
    // Fresh: the first step.
    const first = openSymbolErrors(now - 10 * DAY);
    expect(onPort()[0]!.action).toMatch(/^clean and reseat/);
    expect(onPort()[0]!.reopenedAfterFix).toEqual([]);

    // Reseated (resolved) 9 days ago, erring again 8 days ago: swap the transceiver next.
    repo.resolve(first, now - 9 * DAY, 'tech', 'reseated');
    const second = openSymbolErrors(now - 8 * DAY);
    let e = onPort()[0]!;
    expect(e.action).toMatch(/^swap the transceiver/);
    expect(e.reopenedAfterFix).toEqual([{ fixedAt: now - 9 * DAY, reopenedAt: now - 8 * DAY }]);
    expect(e.reasons.join('; ')).toMatch(/erring again 24 h after the fix of /);

    // Transceiver swapped 2 days ago, erring again an hour ago: replace the cable.
    repo.resolve(second, now - 2 * DAY, 'tech', 'transceiver swapped');
    openSymbolErrors(now - 3_600_000);
    e = onPort()[0]!;
    expect(e.reopenedAfterFix).toHaveLength(2);
    expect(e.action).toMatch(/^replace the cable/);
  });

  it('does not escalate for a fix older than the reopen window', () => {
    const t = testContext();
    try {
      const repo = createFindingsRepo(t.db);
      const now = Date.now();
      const id = repo.open(
        {
          kind: 'symbol-errors',
          severity: 'major',
          subjectType: 'port',
          subjectKey: 'port:0xaa/1',
          subject: { kind: 'port', port: { nodeGuid: '0xaa', portNum: 1 } },
          title: 'x',
          short: 'x',
          evidence: {},
        },
        now - 40 * DAY,
      );
      repo.resolve(id, now - 30 * DAY);
      repo.open(
        {
          kind: 'symbol-errors',
          severity: 'major',
          subjectType: 'port',
          subjectKey: 'port:0xaa/1',
          subject: { kind: 'port', port: { nodeGuid: '0xaa', portNum: 1 } },
          title: 'x',
          short: 'x',
          evidence: {},
        },
        now - DAY,
      );
      const [entry] = worklist(t.db, t.names, {}).filter((x) => x.state !== 'resolved');
      expect(entry!.reopenedAfterFix).toEqual([]);
      expect(entry!.action).toMatch(/^clean and reseat/);
    } finally {
      t.cleanup();
    }
  });
});
