import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingRow } from '@ibwatch/fabric';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { appOf, testContext } from '../test-support.ts';

const ctx = testContext();
let app: FastifyInstance;
const KINDS = [
  'link-degraded-width',
  'link-degraded-speed',
  'link-down',
  'link-downed',
  'counter-rate:PortRcvErrors',
  'counter-rate:PortXmitDiscards',
  'symbol-errors',
];
beforeAll(async () => {
  const repo = createFindingsRepo(ctx.db);
  KINDS.forEach((kind, i) =>
    repo.open(
      {
        kind,
        severity: 'major',
        subjectType: 'port',
        subjectKey: `port:0x000000000000000${i}/1`,
        subject: {},
        title: kind,
        short: kind,
        evidence: {},
      },
      Date.now(),
    ),
  );
  app = await appOf(ctx);
});
afterAll(async () => {
  await app.close();
  ctx.cleanup();
});
const kinds = async (kind: string) =>
  (await app.inject(`/api/findings?kind=${encodeURIComponent(kind)}`))
    .json<FindingRow[]>()
    .map((f) => f.kind)
    .sort();

describe('GET /api/findings?kind=', () => {
  it('matches a family: link-degraded (the filter’s example) finds width and speed', async () => {
    expect(await kinds('link-degraded')).toEqual(['link-degraded-speed', 'link-degraded-width']);
    expect(await kinds('counter-rate')).toEqual(['counter-rate:PortRcvErrors', 'counter-rate:PortXmitDiscards']);
  });
  it('matches a whole kind exactly, not a longer kind that starts with it', async () => {
    expect(await kinds('link-down')).toEqual(['link-down']);
    expect(await kinds('link-degraded-width')).toEqual(['link-degraded-width']);
    expect(await kinds('counter-rate:PortRcvErrors')).toEqual(['counter-rate:PortRcvErrors']);
    expect(await kinds('link-deg')).toEqual([]);
  });
});
