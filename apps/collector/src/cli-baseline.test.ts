import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BaselineValidationReply, FindingRow } from '@ibwatch/fabric';
import { createAsBuiltRepo } from './db/as-built-repo.ts';
import { appOf, REPO_ROOT, SAMPLE_A, testContext } from './test-support.ts';
import { asBuiltFromIbnetdiscover, baselineCommand, formatValidation } from './cli-baseline.ts';

const FIXTURE = join(REPO_ROOT, 'packages/parsers/fixtures/diags/lab-ibnetdiscover.txt');

describe('ibwatch baseline', () => {
  const ctx = testContext();
  afterAll(() => ctx.cleanup());

  it('reads an ibnetdiscover topology file as the as-built: one row per cable, with its rate', () => {
    const links = asBuiltFromIbnetdiscover(readFileSync(FIXTURE, 'utf8'), FIXTURE);
    expect(links.length).toBeGreaterThan(10);
    const keys = links.map((l) => [`${l.a.nodeGuid}/${l.a.portNum}`, `${l.b.nodeGuid}/${l.b.portNum}`].sort().join());
    expect(new Set(keys).size).toBe(links.length);
    expect(links.every((l) => l.width && l.speed && l.aName && l.bType)).toBe(true);
  });

  it('sets the as-built from the topology, and validates every ibdiagnet import against it', async () => {
    const out: string[] = [];
    expect(() => baselineCommand(ctx, ['set'], false, (s) => out.push(s))).toThrow(/no topology stored yet/);
    expect((await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli')).status).not.toBe('failed');
    expect(baselineCommand(ctx, ['set'], false, (s) => out.push(s))).toBe(0);
    expect(baselineCommand(ctx, [], false, (s) => out.push(s))).toBe(0);
    expect(out.at(-1)).toBe('  cabled as built');

    // As if the cable had been built one port off at its first end: the import sees it moved.
    const repo = createAsBuiltRepo(ctx.db);
    const [first, ...rest] = repo.links();
    repo.replace([{ ...first!, a: { ...first!.a, portNum: first!.a.portNum + 100 } }, ...rest], 'test', Date.now());
    expect((await ctx.scans.importIbdiagnet(SAMPLE_A, 'cli')).status).not.toBe('failed');
    const app = await appOf(ctx);
    const r = (await app.inject({ method: 'GET', url: '/api/baseline/validation' })).json() as BaselineValidationReply;
    expect(r.counts).toEqual({ 'missing-link': 0, 'extra-link': 0, 'moved-cable': 1, 'wrong-rail': 0, degraded: 0 });
    const f = (
      await app.inject({ method: 'GET', url: '/api/findings?state=current&kind=baseline-moved-cable' })
    ).json() as FindingRow[];
    expect(f).toHaveLength(1);
    expect(f[0]!.title).toMatch(/^As-built: .* built as .* port \d+ <-> /);
    const lines: string[] = [];
    expect(baselineCommand(ctx, [], false, (s) => lines.push(s))).toBe(1);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^ {2}moved-cable {2}.* built as /);
    expect(formatValidation(r).slice(1)).toEqual(lines.slice(1));
    expect(lines[1]).toBe('missing-link 0, extra-link 0, moved-cable 1, wrong-rail 0, degraded 0');
    await app.close(); // closes the database too
  }, 60_000);
});
