import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFindingsRepo } from '../db/findings-repo.ts';
import { FLAP_PORT, seedFabric, testContext } from '../test-support.ts';

const ctx = testContext();
beforeAll(() => seedFabric(ctx));
afterAll(() => ctx.cleanup());

describe('storePm: flaps', () => {
  it('places a flapping port on its link (looked up for the flapped ports only)', () => {
    const flapping = createFindingsRepo(ctx.db)
      .active()
      .filter((f) => f.kind === 'link-flapping');
    const end = `${FLAP_PORT.nodeGuid}/${FLAP_PORT.portNum}`;
    expect(flapping).toHaveLength(1);
    expect(flapping[0]).toMatchObject({ subjectType: 'link' });
    expect(flapping[0]!.subjectKey.replace(/^link:/, '').split('~')).toContain(end);
  });
});
