/**
 * Integration: the as-built baseline against a live 256-GPU lab. The as-built is taken from the
 * first topology scan (`ibwatch baseline set`), then two host cables of a leaf are plugged back
 * crossed on ibsim's console (the lab's leaves have no free port to move one cable to); the next
 * topology scans must report exactly those two cables as moved, as findings and in the topology
 * validation report, which is printed for the closing note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaselineValidationReply, FindingRow } from '@ibwatch/fabric';
import { swapCables } from '@ibwatch/lab';
import { baselineCommand, formatValidation } from '../src/cli-baseline.ts';
import { startHarness, until, type Harness } from './lab-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
}, 30_000);

describe('as-built baseline on a live lab', () => {
  it('reports two host cables plugged back crossed as two moved cables, in findings and the report', async () => {
    expect((await h.scan('topology')).status).not.toBe('failed');
    const said: string[] = [];
    expect(baselineCommand(h.ctx, ['set'], false, (s) => said.push(s))).toBe(0);
    expect(said.join('\n')).toMatch(/^as-built set: \d+ links from topology scan/);
    const clean = await h.get<BaselineValidationReply>('/api/baseline/validation');
    expect(clean.rows).toEqual([]);
    expect(clean.baseline!.links).toBe(clean.linksNow);

    const p = h.port('leaf-r0-01', 1);
    const q = h.port('leaf-r0-01', 2);
    const hp = h.peer(p);
    const hq = h.peer(q);
    await swapCables(h.lab, p, q);
    // OpenSM brings the re-cabled ports up on its next sweep; a link is stored once both ends are up.
    const report = await until(
      'both moved cables in the validation report',
      async () => {
        await h.scan('topology');
        const r = await h.get<BaselineValidationReply>('/api/baseline/validation');
        return r.counts['moved-cable'] === 2 ? r : undefined;
      },
      60_000,
      1000,
    );
    console.log(`topology validation after crossing the cables of ${p.node} ports ${p.port} and ${q.port}:`);
    console.log(formatValidation(report).join('\n'));
    expect(report.rows.map((r) => r.kind)).toEqual(['moved-cable', 'moved-cable']);
    const ends = (l: { a: { guid: string; port: number }; b: { guid: string; port: number } }) =>
      [`${l.a.guid}/${l.a.port}`, `${l.b.guid}/${l.b.port}`].sort().join('~');
    const pairs = report.rows.map((r) => [ends(r.asBuilt!), ends(r.now!)]).sort();
    expect(pairs).toEqual(
      [
        [[p.key, hp.key].sort().join('~'), [q.key, hp.key].sort().join('~')],
        [[q.key, hq.key].sort().join('~'), [p.key, hq.key].sort().join('~')],
      ].sort(),
    );

    const findings = await h.get<FindingRow[]>('/api/findings?state=current&kind=baseline-moved-cable');
    expect(findings.map((f) => f.subjectKey).sort()).toEqual(
      [`link:${[q.key, hp.key].sort().join('~')}`, `link:${[p.key, hq.key].sort().join('~')}`].sort(),
    );
    expect(findings.every((f) => f.severity === 'major')).toBe(true);
    const csv = await h.app.inject({ method: 'GET', url: '/api/baseline/validation.csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter((l) => l.startsWith('moved-cable,'))).toHaveLength(2);
  }, 120_000);
});
